import * as z from "zod/mini";
import { afterEach, describe, expect, it } from "vitest";
import { useEnglishIssueMessages } from "./zod-locale.js";

const schema = z.strictObject({ keepRecent: z.number().check(z.int()) });
const saved = { ...z.config() };

function messagesFor(input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe("useEnglishIssueMessages", () => {
  afterEach(() => {
    z.config({ localeError: saved.localeError, customError: saved.customError });
  });

  it("should give zod's English messages where zod/mini alone gives only 'Invalid input' (regression)", () => {
    z.config({ localeError: undefined });
    expect(messagesFor({ keepRecent: "3", extra: 1 })).toEqual(["Invalid input", "Invalid input"]);
    useEnglishIssueMessages();
    expect(messagesFor({ keepRecent: "3", extra: 1 })).toEqual([
      "Invalid input: expected number, received string",
      'Unrecognized key: "extra"',
    ]);
  });

  it("should leave a locale the process chose", () => {
    const chosen = () => "chosen";
    z.config({ localeError: chosen });
    useEnglishIssueMessages();
    expect(z.config().localeError).toBe(chosen);
    expect(messagesFor({ keepRecent: 1.5 })).toEqual(["chosen"]);
  });
});
