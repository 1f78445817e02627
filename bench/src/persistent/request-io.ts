// A request on a resumed session: its cost against the in-memory manager, and the file operations it makes (none).
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { createSimpleContext } from "@ctxkit/context-simple";
import { JsonlFileStore, type MessageStore } from "@ctxkit/context-persistent";
import { createContextManager, type ContextManager, type Message } from "@ctxkit/core";
import { median } from "../lib/measure.js";
import { countFileCalls, type FileCallCounter } from "./count-file-calls.js";
import { withJournalFolder, writeJournal } from "./journal-folder.js";

export interface RequestCost {
  readonly manager: string;
  readonly firstRequestMs: number;
  readonly medianRequestMs: number;
  /** Calls into fs, fs/promises or a FileHandle, by anyone in the process, during all the timed requests. */
  readonly fileCalls: number;
  /** Calls that reached the store during the timed requests. */
  readonly storeCalls: number | undefined;
}

const NO_COMPACTION = 100_000_000;

/** Wraps a store to count the calls that reach it. */
function countCalls(store: MessageStore): MessageStore & { calls: number } {
  const counted = { calls: 0 } as MessageStore & { calls: number };
  const count = <T>(call: () => T): T => {
    counted.calls += 1;
    return call();
  };
  return Object.assign(counted, {
    sessionId: store.sessionId,
    location: store.location,
    open: () => count(() => store.open()),
    load: () => count(() => store.load()),
    append: (message: Message) => count(() => store.append(message)),
    writeState: (change: Parameters<MessageStore["writeState"]>[0]) => count(() => store.writeState(change)),
    replace: (messages: readonly Message[], state: Parameters<MessageStore["replace"]>[1]) => count(() => store.replace(messages, state)),
    clear: (state: Parameters<MessageStore["clear"]>[0]) => count(() => store.clear(state)),
    close: () => count(() => store.close()),
  });
}

interface Subject {
  readonly name: string;
  readonly manager: ContextManager;
  readonly storeCalls: () => number | undefined;
  firstRequestMs: number;
  readonly samples: number[];
  fileCalls: number;
  requestStoreCalls: number;
}

/**
 * The managers take turns, so the JIT and the CPU's state treat them alike. Before each request a new
 * message is added (the persistent manager's append is I/O, left out of the count) and a scratch file is
 * fsynced: both requests then start after the same wait on the disk.
 */
async function timeRequests(
  subjects: Subject[],
  extra: readonly Message[],
  runs: number,
  scratch: FileHandle,
  files: FileCallCounter,
): Promise<void> {
  for (const subject of subjects) {
    const started = performance.now();
    await subject.manager.getMessagesForRequest({ tokenBudget: NO_COMPACTION });
    subject.firstRequestMs = performance.now() - started;
  }
  const warmup = Math.ceil(runs / 5);
  for (let run = 0; run < warmup + runs; run += 1) {
    for (const subject of subjects) {
      await subject.manager.addMessage(extra[run % extra.length]!);
      await scratch.write("x");
      await scratch.sync();
      const storeCallsBefore = subject.storeCalls() ?? 0;
      const fileCallsBefore = files.calls;
      const requestStarted = performance.now();
      await subject.manager.getMessagesForRequest({ tokenBudget: NO_COMPACTION });
      const elapsed = performance.now() - requestStarted;
      if (run < warmup) continue;
      subject.samples.push(elapsed);
      subject.fileCalls += files.calls - fileCallsBefore;
      subject.requestStoreCalls += (subject.storeCalls() ?? 0) - storeCallsBefore;
    }
  }
}

const subject = (name: string, manager: ContextManager, storeCalls: () => number | undefined): Subject => ({
  name,
  manager,
  storeCalls,
  firstRequestMs: 0,
  samples: [],
  fileCalls: 0,
  requestStoreCalls: 0,
});

export async function measureRequests(history: Message[], extra: readonly Message[], runs: number): Promise<RequestCost[]> {
  return withJournalFolder(async (storagePath) => {
    await writeJournal(storagePath, "resumed", history);
    const store = countCalls(new JsonlFileStore({ directory: storagePath, sessionId: "resumed", durability: "batch" }));
    const resumed = await createContextManager({ store, tokenizer: "estimate" });
    const inMemory = createSimpleContext({ tokenizer: "estimate" });
    await inMemory.setMessages(history);
    const subjects = [
      subject("context-persistent, resumed (batch)", resumed, () => store.calls),
      subject("context-simple, in memory", inMemory, () => undefined),
    ];
    const scratch = await open(join(storagePath, "scratch"), "a");
    const files = await countFileCalls(join(storagePath, "probe"));
    try {
      await timeRequests(subjects, extra, runs, scratch, files);
    } finally {
      files.restore();
      await scratch.close();
      await resumed.close();
    }
    return subjects.map((entry) => ({
      manager: entry.name,
      firstRequestMs: entry.firstRequestMs,
      medianRequestMs: median(entry.samples),
      fileCalls: entry.fileCalls,
      storeCalls: entry.manager === resumed ? entry.requestStoreCalls : undefined,
    }));
  });
}
