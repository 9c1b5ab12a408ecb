import { type FieldMetadata, getInputProps, getTextareaProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Field, TextareaField } from "~/components/forms";

// A group's name and description, for any conform form whose schema includes groupDetailsShape
// (~/utils/group-schema): Add Group's first step (its page and its dialog) and the group page.

export function GroupDetailsFields({
  fields,
}: {
  fields: Record<"name" | "description", FieldMetadata<string | undefined>>;
}) {
  const { t } = useTranslation("groups");
  return (
    <>
      <Field
        label={t("fields.name")}
        inputProps={getInputProps(fields.name, { type: "text" })}
        errors={fields.name.errors}
      />
      <TextareaField
        label={t("fields.description")}
        textareaProps={getTextareaProps(fields.description)}
        errors={fields.description.errors}
      />
    </>
  );
}
