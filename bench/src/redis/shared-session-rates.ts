// Many workers on one Redis session: appends per second and request latency, against a raw RPUSH loop.
import { randomUUID } from "node:crypto";
import { createRedisContext } from "@ctxkit/context-redis";
import type { Message } from "@ctxkit/core";
import { Redis } from "ioredis";
import { median } from "../lib/measure.js";

export interface SharedSessionCase {
  readonly workers: number;
  /** Turns per worker: each turn is one append, then one request. */
  readonly turns: number;
}

export interface SharedSessionRate extends SharedSessionCase {
  readonly ctxkitAppendsPerSecond: number;
  readonly rawPushesPerSecond: number;
  readonly medianRequestMs: number;
  readonly p90RequestMs: number;
  readonly historyChecked: boolean;
}

const KEY_PREFIX = "ctxkit-bench:";

const quantile = (values: readonly number[], share: number): number => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
};

/**
 * `workers` managers, each with its own connection as a separate process would have, on one session:
 * first they all append `turns` messages at once (the append rate), then each takes `turns` agent
 * turns, adding a message and asking for a view that holds every worker's messages so far.
 */
async function ctxkitRun(url: string, { workers, turns }: SharedSessionCase, messages: readonly Message[]) {
  const sessionId = randomUUID();
  const managers = await Promise.all(
    Array.from({ length: workers }, () => createRedisContext({ url, keyPrefix: KEY_PREFIX, sessionId, tokenizer: "estimate" })),
  );
  const message = (worker: number, turn: number) => messages[(worker * turns + turn) % messages.length]!;
  const started = performance.now();
  await Promise.all(
    managers.map(async (manager, worker) => {
      for (let turn = 0; turn < turns; turn += 1) await manager.addMessage(message(worker, turn));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const requestMs: number[] = [];
  await Promise.all(
    managers.map(async (manager, worker) => {
      for (let turn = 0; turn < turns; turn += 1) {
        await manager.addMessage(message(worker, turn));
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
  return { appendsPerSecond: (workers * turns) / seconds, requestMs, historyChecked: history.length === 2 * workers * turns };
}

/** The floor: the same JSON bodies, one RPUSH each from `workers` connections, awaited one by one, serving no views. */
async function rawRun(url: string, { workers, turns }: SharedSessionCase, messages: readonly Message[]): Promise<number> {
  const clients = await Promise.all(Array.from({ length: workers }, async () => new Redis(url)));
  const key = `${KEY_PREFIX}raw:${randomUUID()}`;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, worker) => {
      for (let turn = 0; turn < turns; turn += 1)
        await client.rpush(key, JSON.stringify(messages[(worker * turns + turn) % messages.length]));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await clients[0]!.del(key);
  await Promise.all(clients.map((client) => client.quit()));
  return (workers * turns) / seconds;
}

/** The two alternate round by round, and medians are kept, since the server shares the machine. */
export async function measureSharedSession(
  url: string,
  cases: readonly SharedSessionCase[],
  messages: readonly Message[],
  rounds: number,
): Promise<SharedSessionRate[]> {
  const results: SharedSessionRate[] = [];
  for (const sharedCase of cases) {
    const ctxkit: number[] = [];
    const raw: number[] = [];
    const requestMs: number[] = [];
    let historyChecked = true;
    for (let round = 0; round < rounds; round += 1) {
      if (round % 2 === 0) raw.push(await rawRun(url, sharedCase, messages));
      const run = await ctxkitRun(url, sharedCase, messages);
      ctxkit.push(run.appendsPerSecond);
      requestMs.push(...run.requestMs);
      historyChecked &&= run.historyChecked;
      if (round % 2 === 1) raw.push(await rawRun(url, sharedCase, messages));
    }
    results.push({
      ...sharedCase,
      ctxkitAppendsPerSecond: median(ctxkit),
      rawPushesPerSecond: median(raw),
      medianRequestMs: median(requestMs),
      p90RequestMs: quantile(requestMs, 0.9),
      historyChecked,
    });
  }
  return results;
}
