import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { listTranscripts, readTranscript, TranscriptLineError } from "./real-transcripts.js";

const folder = mkdtempSync(join(tmpdir(), "ctxkit-transcripts-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const user = JSON.stringify({ role: "user", content: "hi" });
writeFileSync(join(folder, "a-good.jsonl"), `${user}\n\n${JSON.stringify({ role: "assistant", content: "hello" })}\n`);
writeFileSync(join(folder, "b-not-json.jsonl"), `${user}\n{"role":"assistant","content":\n`);
writeFileSync(join(folder, "c-not-a-message.jsonl"), `${user}\n\n${user}\n${JSON.stringify({ role: "tool", content: "x" })}\n`);

describe("listTranscripts", () => {
  it("should skip a transcript with a bad line, reporting one line that names the file, the line and what is wrong (regression)", () => {
    const reported: string[] = [];
    expect(listTranscripts({ folder, report: (line) => reported.push(line) })).toEqual(["a-good.jsonl"]);
    expect(reported).toHaveLength(2);
    expect(reported[0]).toMatch(/^bench: skipped transcript .*b-not-json\.jsonl:2: not valid JSON \(.+\)$/);
    expect(reported[1]).toMatch(/^bench: skipped transcript .*c-not-a-message\.jsonl:4: not a message \(tool_call_id: .+\)$/);
    for (const line of reported) expect(line).not.toContain("\n");
  });

  it("should list nothing when the folder is absent", () => {
    expect(listTranscripts({ folder: join(folder, "absent") })).toEqual([]);
  });
});

describe("readTranscript", () => {
  it("should read one message per line, skipping blank lines", () => {
    expect(readTranscript("a-good.jsonl", folder)).toEqual([
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ]);
  });

  it("should throw TranscriptLineError naming the file's line, counting blank lines", () => {
    expect(() => readTranscript("c-not-a-message.jsonl", folder)).toThrow(TranscriptLineError);
    expect(() => readTranscript("c-not-a-message.jsonl", folder)).toThrow(/c-not-a-message\.jsonl:4: /);
  });
});
