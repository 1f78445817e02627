// File lists on real recorded sessions, replayed through context-simple until several checkpoints were made.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createSimpleContext } from "@ctxkit/context-simple";
import type { Message } from "@ctxkit/core";
import { isSynthetic } from "@ctxkit/core/kit";
import { readMessagesFile } from "@ctxkit/core/testing";
import { describe, expect, it } from "vitest";
import { extractiveSummarizer } from "./extractive-summarizer.js";
import type { SummaryMetadata } from "./summary-message.js";
import { createSummaryStrategy } from "./summary-strategy.js";
import type { Summarizer } from "./summarizer.js";

const transcriptsDirectory = fileURLToPath(new URL("../../../../shared/data/transcripts/", import.meta.url));
const exists = existsSync(transcriptsDirectory);

/** Each transcript's tools, read by hand from the recording: which argument names a file, and what the tool does. */
const TRANSCRIPTS = [
  {
    file: "claude-agent-sdk-tielec-issue398-implementation.jsonl",
    tools: { Read: ["read", "file_path"], Edit: ["modified", "file_path"], Write: ["modified", "file_path"] },
  },
  {
    file: "claude-code-spotter-4d5611e5.jsonl",
    tools: { Read: ["read", "file_path"], Edit: ["modified", "file_path"], Write: ["modified", "file_path"] },
  },
  {
    file: "swe-agent-marshmallow-1867-function-calling.jsonl",
    tools: { open: ["read", "path"], create: ["modified", "filename"] },
  },
] as const;

/** The lists expected for `history[0..coveredThrough]`, derived independently of the strategy's classifier. */
function expectedFiles(history: readonly Message[], coveredThrough: number, tools: Record<string, readonly [string, string]>) {
  const read: string[] = [];
  const modified: string[] = [];
  for (const message of history.slice(0, coveredThrough + 1)) {
    for (const call of message.role === "assistant" ? (message.tool_calls ?? []) : []) {
      const tool = tools[call.function.name];
      const path = tool === undefined ? undefined : (JSON.parse(call.function.arguments) as Record<string, unknown>)[tool[1]];
      if (typeof path !== "string") continue;
      const list = tool![0] === "read" ? read : modified;
      if (!list.includes(path)) list.push(path);
    }
  }
  return { readFiles: read.filter((path) => !modified.includes(path)), modifiedFiles: modified };
}

describe.skipIf(!exists)("file lists on real transcripts (skipped when ../shared/data/transcripts is absent)", () => {
  it.each(TRANSCRIPTS)("should list exactly the files read and modified up to the summary's end in $file", async ({ file, tools }) => {
    const history = readMessagesFile(`${transcriptsDirectory}/${file}`);
    let calls = 0;
    const extractive = extractiveSummarizer();
    const summarizer: Summarizer = (request) => ((calls += 1), extractive(request));
    const manager = createSimpleContext({
      maxTokens: 6_000,
      tokenizer: "estimate",
      strategies: ["clear-tool-results", createSummaryStrategy({ summarizer }), "truncate"],
    });
    let summary: SummaryMetadata | undefined;
    for (const message of history) {
      await manager.addMessage(message);
      const view = await manager.getMessagesForRequest().catch(() => undefined);
      const found = view?.find((candidate) => isSynthetic(candidate) && candidate.metadata?.ctxkit?.source === "summary");
      if (found !== undefined) summary = found.metadata!.ctxkit!["summary"] as SummaryMetadata;
    }
    // Several checkpoints, so the lists were carried over from one to the next.
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(summary).toBeDefined();
    const expected = expectedFiles(history, summary!.coveredThrough, tools);
    expect(expected.readFiles.length + expected.modifiedFiles.length).toBeGreaterThan(0);
    expect({ readFiles: summary!.readFiles, modifiedFiles: summary!.modifiedFiles }).toEqual(expected);
  });
});
