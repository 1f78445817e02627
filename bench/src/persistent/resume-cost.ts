// The time to resume a session from its journal, against reading the same file and parsing every line.
import { readFile, stat } from "node:fs/promises";
import { createPersistentContext } from "@ctxkit/context-persistent";
import type { Message } from "@ctxkit/core";
import { median, type Measurement } from "../lib/measure.js";
import { withJournalFolder, writeJournal } from "./journal-folder.js";

export interface ResumeCost {
  readonly messages: number;
  readonly bytes: number;
  readonly resume: Measurement;
  readonly plainParse: Measurement;
}

export async function measureResume(history: Message[], runs: number): Promise<ResumeCost> {
  return withJournalFolder(async (storagePath) => {
    const file = await writeJournal(storagePath, "resume", history);
    const { size } = await stat(file);
    // Alternated, one of each per round, so that garbage collection and the page cache treat both alike.
    const resumeSamples: number[] = [];
    const parseSamples: number[] = [];
    for (let run = 0; run <= runs; run += 1) {
      let started = performance.now();
      // The parsed records are kept, as a resume must keep the messages.
      const records: unknown[] = [];
      for (const line of (await readFile(file, "utf8")).split("\n")) if (line !== "") records.push(JSON.parse(line));
      const parseMs = performance.now() - started;
      started = performance.now();
      const manager = await createPersistentContext({ storagePath, sessionId: "resume", tokenizer: "estimate" });
      const resumeMs = performance.now() - started;
      await manager.close();
      // The first round warms the page cache and the JIT, and is not kept.
      if (run === 0) continue;
      parseSamples.push(parseMs);
      resumeSamples.push(resumeMs);
    }
    const resume: Measurement = { medianMs: median(resumeSamples), samplesMs: resumeSamples };
    const plainParse: Measurement = { medianMs: median(parseSamples), samplesMs: parseSamples };
    return { messages: history.length, bytes: size, resume, plainParse };
  });
}
