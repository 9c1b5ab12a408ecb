import { type FieldMetadata, getInputProps, getSelectProps } from "@conform-to/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Field, FieldErrors, LanguageOptions, SelectField } from "~/components/forms";
import { TimeZoneChooser } from "~/components/time-zone-chooser";
import { addDays } from "~/utils/calendar";
import { deliveryMethods, FIRST_PROMPT_MAX_DAYS_AHEAD, frequencies } from "~/utils/storyteller-choices";
import { countryOfTypedNumber, onlyMatch, type PhoneCountry, type ZoneChoice } from "~/utils/time-zones";
import { useHydrated } from "~/utils/use-hydrated";

// The Storyteller form's parts, for any conform form whose schema includes storytellerShape and/or
// scheduleShape (~/utils/storyteller-schema): adding a Storyteller, editing one, Add Group. They
// render fields only; the form, its layout and its buttons belong to the page.

type Meta = FieldMetadata<unknown>;

export type StorytellerFieldsMeta = Record<
  | "nickname"
  | "firstName"
  | "relationship"
  | "deliveryMethod"
  | "email"
  | "phone"
  | "phoneCountry"
  | "callConsent"
  | "whatsappConsent"
  | "timeZone"
  | "zoneQuery"
  | "zoneQueryShown"
  | "language",
  Meta
>;

const valueOf = (field: Meta) => (typeof field.value === "string" ? field.value : undefined);

/**
 * Who the Storyteller is and how questions reach them. Only the chosen method's fields show: live
 * with JavaScript; without it, "Show what this choice needs" posts the form back (conform's validate
 * intent: nothing is kept) and the page comes back with that method's fields.
 */
export function StorytellerFields({
  fields,
  timeZones,
  phoneCountries,
  enterSubmits,
}: {
  fields: StorytellerFieldsMeta;
  timeZones: ZoneChoice[];
  /** The countries a number may be from, named in the reader's language. */
  phoneCountries: PhoneCountry[];
  /**
   * The page's own submit (its intent), which Enter must press without JavaScript: otherwise the
   * first submit in the form, "Show what this choice needs", would take it and keep nothing.
   */
  enterSubmits: { name: string; value: string };
}) {
  const { t } = useTranslation("storytellers");
  const hydrated = useHydrated();
  const [method, setMethod] = useState(
    valueOf(fields.deliveryMethod) ?? (fields.deliveryMethod.initialValue as string | undefined) ?? "email",
  );
  const typedNumber = valueOf(fields.phone) ?? (fields.phone.initialValue as string | undefined) ?? "";
  // A number written with its +code names its country, on a post-back as when typed; written
  // without one, it is read in the country the reader chose: a country read off an earlier "+44 …"
  // is not his choice, so "(416) 555-0199" typed after it is still read where he chose. Without
  // JavaScript the select can't follow the typing, so it shows (and posts) his own choice.
  const [chosenCountry, setChosenCountry] = useState(valueOf(fields.phoneCountry) ?? "");
  const [codeCountry, setCodeCountry] = useState(() =>
    countryOfTypedNumber(typedNumber, phoneCountries, valueOf(fields.phoneCountry)),
  );
  const country = codeCountry ?? chosenCountry;
  const [query, setQuery] = useState(valueOf(fields.zoneQuery) ?? "");
  // A plain post that was a new search (zoneSearchFirst) comes back with its one place chosen.
  const [zone, setZone] = useState(
    () =>
      (query !== (valueOf(fields.zoneQueryShown) ?? "") ? onlyMatch(timeZones, query) : null) ??
      valueOf(fields.timeZone) ??
      "",
  );
  // Until the reader chooses a zone here, her number's country suggests one.
  const [zonePicked, setZonePicked] = useState(false);
  const pickZone = (chosen: string) => {
    setZonePicked(true);
    setZone(chosen);
  };
  const { key: consentKey, ...consentProps } = getInputProps(fields.callConsent, { type: "checkbox", value: "on" });
  const { key: countryKey, defaultValue: _default, ...countryProps } = getSelectProps(fields.phoneCountry);
  const byPhone = method === "sms" || method === "call" || method === "whatsapp";
  // A number's country with one zone chooses it (unless the reader chose a zone, or one of that
  // country's); with several, they come first in the list.
  const suggestZone = (code: string) => {
    const own = timeZones.filter((z) => z.country === code);
    if (own.length === 1 && !zonePicked && !own.some((z) => z.zone === zone)) setZone(own[0].zone);
  };
  const chooseCountry = (code: string) => {
    setChosenCountry(code);
    setCodeCountry(null);
    suggestZone(code);
  };
  const onNumber = (typed: string) => {
    const code = countryOfTypedNumber(typed, phoneCountries, country);
    setCodeCountry(code);
    if (code) suggestZone(code);
  };
  const { key: whatsappKey, ...whatsappProps } = getInputProps(fields.whatsappConsent, {
    type: "checkbox",
    value: "on",
  });
  return (
    <>
      {hydrated ? null : (
        // Enter's button: the first submit in the form, out of sight and out of the tab order.
        <button
          type="submit"
          name={enterSubmits.name}
          value={enterSubmits.value}
          tabIndex={-1}
          aria-hidden="true"
          className="sr-only"
        />
      )}
      <Field
        label={t("fields.nickname")}
        hint={t("fields.nicknameHint")}
        hintAfter
        inputProps={getInputProps(fields.nickname, { type: "text" })}
        errors={fields.nickname.errors}
      />
      <Field
        label={t("fields.firstName")}
        inputProps={getInputProps(fields.firstName, { type: "text" })}
        errors={fields.firstName.errors}
      />
      <Field
        label={t("fields.relationship")}
        hint={t("fields.relationshipHint")}
        inputProps={getInputProps(fields.relationship, { type: "text" })}
        errors={fields.relationship.errors}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">{t("fields.deliveryMethod")}</legend>
        {deliveryMethods.map((choice) => (
          <label key={choice} className="flex min-h-11 items-center gap-2">
            <input
              type="radio"
              name={fields.deliveryMethod.name}
              value={choice}
              checked={method === choice}
              onChange={() => setMethod(choice)}
            />
            {t(`fields.delivery.${choice}`)}
          </label>
        ))}
        <FieldErrors id={`${fields.deliveryMethod.id}-error`} errors={fields.deliveryMethod.errors} />
        {hydrated ? null : (
          <button
            type="submit"
            name="__intent__"
            value={JSON.stringify({ type: "validate", payload: { name: fields.deliveryMethod.name } })}
            formNoValidate
            className="btn-secondary self-start"
          >
            {t("fields.showMethodFields")}
          </button>
        )}
      </fieldset>
      {/* Another method's address and consent are hidden and disabled: not posted, so never refused
          unseen. The number and its country stay posted: the country is the form's reading of the
          number across the no-JS post-back, and the model ignores a number email does not use. */}
      <fieldset hidden={method !== "email"} disabled={method !== "email"} className="min-[700px]:col-span-2">
        <Field
          label={t("fields.email")}
          hint={t("fields.emailHint")}
          inputProps={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "off" }}
          errors={fields.email.errors}
        />
      </fieldset>
      <fieldset hidden={!byPhone} className="grid gap-5 min-[700px]:col-span-2 min-[700px]:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.phoneCountry.id} className="font-medium">
            {t("fields.phoneCountry")}
          </label>
          <select
            key={countryKey}
            {...countryProps}
            value={hydrated ? country : chosenCountry}
            onChange={(event) => chooseCountry(event.target.value)}
            className="input"
            aria-describedby={`${fields.phoneCountry.id}-hint`}
          >
            {phoneCountries.map(({ code, name }) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
          <p id={`${fields.phoneCountry.id}-hint`} className="text-sm text-muted">
            {t("fields.phoneCountryHint")}
          </p>
        </div>
        <Field
          label={t("fields.phone")}
          // Each method's own reach: a text's rule is no help to a WhatsApp number.
          hint={t(`fields.phoneHints.${method === "email" ? "sms" : method}`)}
          hintAfter
          inputProps={{
            ...getInputProps(fields.phone, { type: "tel" }),
            autoComplete: "off",
            onChange: (event) => onNumber(event.target.value),
          }}
          errors={fields.phone.errors}
        />
      </fieldset>
      <fieldset
        hidden={method !== "call"}
        disabled={method !== "call"}
        className="flex flex-col gap-1 min-[700px]:col-span-2"
      >
        <label className="flex items-start gap-2">
          <input key={consentKey} {...consentProps} className="mt-1" />
          <span>{t("fields.callConsent")}</span>
        </label>
        <p className="text-sm text-muted">{t("fields.callConsentHint")}</p>
        <FieldErrors id={fields.callConsent.errorId} errors={fields.callConsent.errors} />
      </fieldset>
      <fieldset
        hidden={method !== "whatsapp"}
        disabled={method !== "whatsapp"}
        className="flex flex-col gap-1 min-[700px]:col-span-2"
      >
        <label className="flex items-start gap-2">
          <input key={whatsappKey} {...whatsappProps} className="mt-1" />
          <span>{t("fields.whatsappConsent")}</span>
        </label>
        <p className="text-sm text-muted">{t("fields.whatsappConsentHint")}</p>
        <FieldErrors id={fields.whatsappConsent.errorId} errors={fields.whatsappConsent.errors} />
      </fieldset>
      <TimeZoneChooser
        field={fields.timeZone}
        zones={timeZones}
        country={byPhone ? country : undefined}
        query={query}
        onQuery={setQuery}
        zone={zone}
        onZone={pickZone}
      />
      <SelectField
        label={t("fields.language")}
        selectProps={getSelectProps(fields.language)}
        errors={fields.language.errors}
      >
        <LanguageOptions />
      </SelectField>
    </>
  );
}

export type ScheduleFieldsMeta = Record<"firstPromptDate" | "frequency", Meta>;

/**
 * When the first question goes (from `minDate`, when given, to a year after it, as the server holds
 * it: firstPromptDateProblem) and how often the next ones follow.
 */
export function ScheduleFields({ fields, minDate }: { fields: ScheduleFieldsMeta; minDate?: string }) {
  const { t } = useTranslation("storytellers");
  return (
    <>
      <Field
        label={t("fields.firstPromptDate")}
        inputProps={{
          ...getInputProps(fields.firstPromptDate, { type: "date" }),
          min: minDate,
          max: minDate ? addDays(minDate, FIRST_PROMPT_MAX_DAYS_AHEAD) : undefined,
        }}
        errors={fields.firstPromptDate.errors}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 font-medium">{t("fields.frequency")}</legend>
        {frequencies.map((frequency) => (
          <label key={frequency} className="flex min-h-11 items-center gap-2">
            <input
              type="radio"
              name={fields.frequency.name}
              value={frequency}
              defaultChecked={(fields.frequency.initialValue ?? "weekly") === frequency}
            />
            {t(`frequency.${frequency}`)}
          </label>
        ))}
        <FieldErrors id={`${fields.frequency.id}-error`} errors={fields.frequency.errors} />
      </fieldset>
    </>
  );
}
