// Many workers on one shared session against a raw write loop on the same server: the timing both store benches share.
import type { ContextManager, Message } from "@ctxkit/core";
import { median } from "./measure.js";

export interface SharedSessionCase {
  readonly workers: number;
  /** Turns per worker: each turn is one append, then one request. */
  readonly turns: number;
}

export interface SharedSessionRate extends SharedSessionCase {
  readonly ctxkitAppendsPerSecond: number;
  /** The raw loop's writes per second: the floor the store is compared with. */
  readonly rawWritesPerSecond: number;
  readonly medianRequestMs: number;
  readonly p90RequestMs: number;
  readonly historyChecked: boolean;
}

export interface SharedSessionRun {
  readonly appendsPerSecond: number;
  readonly requestMs: readonly number[];
  readonly historyChecked: boolean;
}

type ClosableManager = ContextManager & { close(): Promise<void> };

const quantile = (values: readonly number[], share: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
};

/** The message worker `worker` writes at `turn`: every worker writes its own share of `messages`. */
export function messageFor(messages: readonly Message[], turns: number, worker: number, turn: number): Message {
  return messages[(worker * turns + turn) % messages.length]!;
}

/**
 * `managers` (one per worker, each with its own connection as a separate process would have) on one
 * session: first they all append `turns` messages at once (the append rate), then each takes `turns`
 * agent turns, adding a message and asking for a view that holds every worker's messages so far.
 */
export async function driveWorkers(
  managers: readonly ClosableManager[],
  turns: number,
  messages: readonly Message[],
): Promise<SharedSessionRun> {
  const started = performance.now();
  await Promise.all(
    managers.map(async (manager, worker) => {
      for (let turn = 0; turn < turns; turn += 1) await manager.addMessage(messageFor(messages, turns, worker, turn));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const requestMs: number[] = [];
  await Promise.all(
    managers.map(async (manager, worker) => {
      for (let turn = 0; turn < turns; turn += 1) {
        await manager.addMessage(messageFor(messages, turns, worker, turn));
        const requestStarted = performance.now();
        await manager.getMessagesForRequest({ tokenBudget: 128_000 });
        requestMs.push(performance.now() - requestStarted);
      }
    }),
  );
  // Every acknowledged append is in the shared history: what a reader on any worker sees.
  const history = await managers[0]!.getMessages();
  await managers[0]!.clear();
  await Promise.all(managers.map((manager) => manager.close()));
  const workers = managers.length;
  return { appendsPerSecond: (workers * turns) / seconds, requestMs, historyChecked: history.length === 2 * workers * turns };
}

/** ctxkit and the raw loop alternate round by round, and medians are kept, since the server shares the machine. */
export async function measureSharedSessionRates(
  cases: readonly SharedSessionCase[],
  rounds: number,
  run: { ctxkit(sharedCase: SharedSessionCase): Promise<SharedSessionRun>; raw(sharedCase: SharedSessionCase): Promise<number> },
): Promise<SharedSessionRate[]> {
  const results: SharedSessionRate[] = [];
  for (const sharedCase of cases) {
    const ctxkit: number[] = [];
    const raw: number[] = [];
    const requestMs: number[] = [];
    let historyChecked = true;
    for (let round = 0; round < rounds; round += 1) {
      if (round % 2 === 0) raw.push(await run.raw(sharedCase));
      const outcome = await run.ctxkit(sharedCase);
      ctxkit.push(outcome.appendsPerSecond);
      requestMs.push(...outcome.requestMs);
      historyChecked &&= outcome.historyChecked;
      if (round % 2 === 1) raw.push(await run.raw(sharedCase));
    }
    results.push({
      ...sharedCase,
      ctxkitAppendsPerSecond: median(ctxkit),
      rawWritesPerSecond: median(raw),
      medianRequestMs: median(requestMs),
      p90RequestMs: quantile(requestMs, 0.9),
      historyChecked,
    });
  }
  return results;
}
