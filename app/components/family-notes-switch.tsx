import { useTranslation } from "react-i18next";
import { Form } from "react-router";

/** On the edit page: whether the Storyteller hears of the family's hearts and notes (decision 048). */
export function FamilyNotesSwitch({ storytellerId, name, on }: { storytellerId: string; name: string; on: boolean }) {
  const { t } = useTranslation("storytellers");
  return (
    <Form
      method="post"
      action={`/dashboard/recipient/${storytellerId}/family-notes`}
      className="flex flex-col gap-3 rounded-xl border border-line bg-panel p-6"
      data-testid="family-notes"
    >
      <h2 className="text-lg font-semibold">{t("familyNotes.title")}</h2>
      <p>{on ? t("familyNotes.on", { name }) : t("familyNotes.off", { name })}</p>
      <button type="submit" name="familyNotes" value={on ? "off" : "on"} className="btn-secondary self-start">
        {on ? t("familyNotes.turnOff") : t("familyNotes.turnOn")}
      </button>
    </Form>
  );
}
