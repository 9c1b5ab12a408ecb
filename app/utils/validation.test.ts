import { describe, expect, it } from "vitest";
import { customPromptText } from "./prompt-schema";
import { plainText, text } from "./validation";

describe("text fields", () => {
  it.each(["a\u0000b", "bell\u0007", "esc\u001b[0m", "del\u007f", "c1\u0085"])(
    "refuse control characters: %j",
    (value) => {
      for (const schema of [text(1, 50), plainText(50), customPromptText]) {
        const result = schema.safeParse(`${value} long enough`);
        expect(result.success).toBe(false);
        expect(result.error?.issues.map((issue) => issue.message)).toContain("validation.invalidCharacters");
      }
    },
  );

  it("keep tabs and line breaks, and Devanagari", () => {
    expect(text(1, 50).parse("पहली\tपंक्ति\r\nदूसरी")).toBe("पहली\tपंक्ति\r\nदूसरी");
    expect(customPromptText.parse("What was school like?\nAnd after?")).toBe("What was school like?\nAnd after?");
  });
});
