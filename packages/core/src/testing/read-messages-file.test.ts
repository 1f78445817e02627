import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ContextValidationError } from "../errors.js";
import { readMessagesFile } from "./read-messages-file.js";

describe("readMessagesFile", () => {
  const directory = mkdtempSync(join(tmpdir(), "ctxkit-read-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("should read one message per line, skipping blank lines", () => {
    const file = join(directory, "ok.jsonl");
    writeFileSync(file, '{"role":"user","content":"hi"}\n\n{"role":"assistant","content":"hello"}\n');
    expect(readMessagesFile(file)).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ]);
  });

  it("should name the index of a bad line", () => {
    const file = join(directory, "bad.jsonl");
    writeFileSync(file, '{"role":"user","content":"hi"}\n{"role":"tool","content":"x"}\n');
    expect(() => readMessagesFile(file)).toThrow(ContextValidationError);
    expect(() => readMessagesFile(file)).toThrow(/index 1/);
  });

  it("should refuse a line that is not JSON with a ContextValidationError naming its entry and line (regression)", () => {
    const file = join(directory, "not-json.jsonl");
    writeFileSync(file, '{"role":"user","content":"hi"}\n\n{"role":"assistant","content":\n');
    expect(() => readMessagesFile(file)).toThrow(ContextValidationError);
    expect(() => readMessagesFile(file)).toThrow(/index 1: .*line 3 of .*not-json\.jsonl is not valid JSON/);
  });
});
