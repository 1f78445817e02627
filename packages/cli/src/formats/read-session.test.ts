import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixtureText } from "./read-fixture.js";
import { readSession } from "./read-session.js";

const folder = mkdtempSync(join(tmpdir(), "ctxkit-read-session-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe("readSession", () => {
  it("should read a file in the format it detects, with what it skipped", async () => {
    const file = join(folder, "rollout.jsonl");
    writeFileSync(file, fixtureText("codex-rollout.jsonl"));
    const session = await readSession(file);
    expect(session).toMatchObject({ file, format: "codex", skipped: { "reasoning item": 2 } });
    expect(session.messages).toHaveLength(7);
  });

  it("should read with the format it is given, and refuse one that does not exist", async () => {
    const file = join(folder, "chat.json");
    writeFileSync(file, JSON.stringify([{ role: "user", content: "hi" }]));
    expect((await readSession(file, { format: "ai-sdk" })).format).toBe("ai-sdk");
    await expect(readSession(file, { format: "word" })).rejects.toThrow(`${file}: there is no format "word". Pass --format with one of: `);
  });

  it("should name a file it cannot open", async () => {
    await expect(readSession(join(folder, "missing.jsonl"))).rejects.toMatchObject({
      code: "CLI_SESSION_READ",
      message: expect.stringContaining("missing.jsonl: cannot be read (ENOENT)"),
    });
  });
});
