import { describe, expect, it } from "vitest";
import { registerSchema } from "~/auth/forms";
import { keepSchema } from "~/routes/dashboard.recipient.$id_.keep/schema";
import { groupDetailsShape } from "~/utils/group-schema";
import { profileSchema } from "~/utils/profile-schema";
import { storytellerShape } from "~/utils/storyteller-schema";
import { isSingleLine, oneLine } from "~/utils/validation";

// Every single-line field a person fills in refuses a line break (and tabs and the other C0 and C1
// control characters) with one message: a name stored with "\r\nBcc: …" would reach email subjects.

const HEADER_BREAK = "Al\r\nBcc: victim@example.com";
const BREAKS = [HEADER_BREAK, "Al\nBcc", "Al\rBcc", "Al\tB", "Al\u0085B", "Al\u2028B", "Al\u001bB"];

/** The messages a field's schema gives `value`. */
const messages = (
  schema: { safeParse(value: unknown): { error?: { issues: { message: string }[] } } },
  value: string,
) => schema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

const fields = {
  "registration first name": registerSchema.shape.firstName,
  "registration last name": registerSchema.shape.lastName,
  "registration nickname": registerSchema.shape.nickname,
  "Storyteller nickname": storytellerShape.nickname,
  "Storyteller first name": storytellerShape.firstName,
  "Storyteller relationship": storytellerShape.relationship,
  "Storyteller phone": storytellerShape.phone,
  "profile first name": profileSchema.shape.firstName,
  "profile last name": profileSchema.shape.lastName,
  "profile nickname": profileSchema.shape.nickname,
  "profile phone": profileSchema.shape.phone,
  "group name": groupDetailsShape.name,
};

describe("single-line fields", () => {
  it.each(Object.entries(fields))("%s refuses line breaks and control characters", (_name, schema) => {
    for (const value of BREAKS)
      expect(messages(schema, value), JSON.stringify(value)).toEqual(["validation.singleLine"]);
    expect(messages(schema, "Nani Devi")).toEqual([]);
    expect(messages(schema, "नानी देवी")).toEqual([]);
  });

  it("the book's title refuses them too", () => {
    const book = (title: string) =>
      keepSchema.safeParse({
        intent: "book",
        title,
        paper: "a4",
        cover: "none",
        language: "en",
        include: ["0b6f6a8e-8c1d-4a59-9d7e-2f1e0c7d9a11"],
      });
    expect(book(HEADER_BREAK).error?.issues).toEqual([
      expect.objectContaining({ path: ["title"], message: "validation.singleLine" }),
    ]);
    expect(book("Nani's stories").success).toBe(true);
  });

  it("folds what is already stored onto one line for the message builders", () => {
    expect(oneLine(HEADER_BREAK)).toBe("Al Bcc: victim@example.com");
    expect(oneLine("Nani\r\n\r\n\tDevi\u2028")).toBe("Nani Devi ");
    expect(isSingleLine(oneLine(BREAKS.join("")))).toBe(true);
  });
});
