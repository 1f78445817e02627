import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeMessageStore } from "@ctxkit/conformance/vitest";
import { afterAll } from "vitest";
import { fixturesOf } from "@ctxkit/test-support/fixture-process";
import { rewriteFileFor } from "./atomic-rewrite.js";
import { JsonlFileStore } from "./jsonl-file-store.js";

const { startFixture, removeFixtureBundles } = fixturesOf(new URL("../", import.meta.url), ["zod"]);

const directory = mkdtempSync(join(tmpdir(), "ctxkit-store-suite-"));
afterAll(async () => {
  rmSync(directory, { recursive: true, force: true });
  await removeFixtureBundles();
});

describeMessageStore("JsonlFileStore", (sessionId) => new JsonlFileStore({ directory, sessionId }), {
  // A line in the middle that is no longer a record (the last one would count as a torn write and be cut off).
  corrupt: async (sessionId) => {
    const file = join(directory, `${sessionId}.jsonl`);
    const lines = readFileSync(file, "utf8").split("\n");
    lines[2] = '{"type":"add","message":{"role"';
    writeFileSync(file, lines.join("\n"));
  },
  // A journal edited by hand: a message line that is no longer a message, or a state line without its value.
  // A journal has no counters and no typed keys: every record is a line.
  corruptRecords: {
    kinds: ["message", "state"],
    corrupt: async (sessionId, kind) => {
      const file = join(directory, `${sessionId}.jsonl`);
      const lines = readFileSync(file, "utf8").split("\n");
      const index = lines.findIndex((line) => line.includes(kind === "message" ? '"type":"add"' : '"type":"state"'));
      lines[index] =
        kind === "message"
          ? '{"v":1,"type":"add","message":{"role":"robot"}}'
          : '{"v":1,"type":"state","strategy":"summary","key":"checkpoint"}';
      writeFileSync(file, lines.join("\n"));
    },
  },
  // A real child process, killed with SIGKILL once the new content is partly written (or the replace is done).
  crashDuringReplace: async (sessionId, messages, state) => {
    const staged = rewriteFileFor(join(directory, `${sessionId}.jsonl`));
    const payloadFile = join(directory, `${sessionId}.payload.json`);
    writeFileSync(payloadFile, JSON.stringify({ messages, state: [...state].map(([strategy, values]) => [strategy, [...values]]) }));
    const child = await startFixture("replace-child", [directory, sessionId, payloadFile]);
    await child.waitForLine((line) => line === "replacing");
    while (!child.lines.includes("replaced") && (statSync(staged, { throwIfNoEntry: false })?.size ?? 0) === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    child.child.kill("SIGKILL");
    await child.exited;
    rmSync(payloadFile, { force: true });
  },
});
