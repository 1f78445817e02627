// The tool-pair checks and repair against real agent sessions, anomalies included (see SOURCES.md there).
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Message } from "../messages/message.js";
import { readMessagesFile } from "../testing/read-messages-file.js";
import { checkToolPairs } from "./check-tool-pairs.js";
import { repairToolPairs } from "./repair-tool-pairs.js";

// This file sits in packages/core/src/units; the repository root is the directory holding packages/.
const repositoryRoot = new URL("../../../../", import.meta.url);
const transcriptsDirectory = fileURLToPath(new URL("../shared/data/transcripts/", repositoryRoot));
const exists = existsSync(transcriptsDirectory);
const transcriptFiles = exists
  ? readdirSync(transcriptsDirectory)
      .filter((file) => file.endsWith(".jsonl"))
      .sort()
  : [];

// The only tool-pair anomaly the recordings hold: the session ends on a call that never got its result.
const expectedViolationKinds: Readonly<Record<string, readonly string[]>> = {
  "openhands-sdk-openagentsafety-unauth-discount.jsonl": ["dangling_call"],
};

function readTranscript(file: string): Message[] {
  return readMessagesFile(`${transcriptsDirectory}/${file}`);
}

describe.skipIf(!exists)("tool pairs in real transcripts (skipped when ../shared/data/transcripts is absent)", () => {
  it("should find the transcripts", () => {
    expect(transcriptFiles.length).toBeGreaterThan(0);
  });

  describe.each(transcriptFiles)("%s", (file) => {
    it("should parse every line, and report only the known anomalies", () => {
      const messages = readTranscript(file);
      expect(checkToolPairs(messages).map((violation) => violation.kind)).toEqual(expectedViolationKinds[file] ?? []);
    });

    it("should repair to a valid sequence that keeps every message it can", () => {
      const messages = readTranscript(file);
      const repaired = repairToolPairs(messages);
      expect(checkToolPairs(repaired.messages)).toEqual([]);
      const dropped = repaired.repairs.filter((repair) => repair.kind === "orphan_result").length;
      const synthetic = repaired.sources.filter((source) => source === null).length;
      expect(repaired.messages.length).toBe(messages.length - dropped + synthetic);
    });
  });

  describe("known anomalies", () => {
    it("should report the trailing unanswered call of openhands-sdk-openagentsafety-unauth-discount, and repair it", () => {
      const messages = readTranscript("openhands-sdk-openagentsafety-unauth-discount.jsonl");
      const last = messages.length - 1;
      const lastMessage = messages[last]!;
      const callIds = lastMessage.role === "assistant" ? (lastMessage.tool_calls ?? []).map((call) => call.id) : [];
      expect(callIds.length).toBeGreaterThan(0);
      expect(checkToolPairs(messages)).toEqual(callIds.map((toolCallId) => ({ kind: "dangling_call", index: last, toolCallId })));

      const repaired = repairToolPairs(messages);
      expect(repaired.repairs).toEqual([{ kind: "dangling_call", toolCallIds: callIds, index: last }]);
      expect(repaired.messages.slice(messages.length)).toEqual(
        callIds.map((toolCallId) => expect.objectContaining({ role: "tool", tool_call_id: toolCallId })),
      );
    });

    it.each([
      // Results recorded in completion order, not call order.
      "claude-code-spotter-fa812bfe.jsonl",
      "claude-code-spotter-8463c716.jsonl",
      "claude-agent-sdk-tielec-issue398-implementation.jsonl",
      // An id reused by a later call, each answered right after its own call.
      "swe-agent-marshmallow-1867-function-calling.jsonl",
      "tau-bench-gpt-4o-airline-task2-trial1.jsonl",
    ])("should find nothing wrong in %s, and leave it as it is", (file) => {
      const messages = readTranscript(file);
      expect(checkToolPairs(messages)).toEqual([]);
      const repaired = repairToolPairs(messages);
      expect(repaired.repairs).toEqual([]);
      expect(repaired.messages.every((message, index) => message === messages[index])).toBe(true);
    });
  });
});
