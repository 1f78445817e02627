// Many workers on one Redis session: appends per second and request latency, against a raw RPUSH loop.
import { randomUUID } from "node:crypto";
import { createRedisContext } from "@ctxkit/context-redis";
import type { Message } from "@ctxkit/core";
import { Redis } from "ioredis";
import {
  driveWorkers,
  measureSharedSessionRates,
  messageFor,
  type SharedSessionCase,
  type SharedSessionRate,
} from "../lib/shared-session-rates.js";

const KEY_PREFIX = "ctxkit-bench:";

async function ctxkitRun(url: string, { workers, turns }: SharedSessionCase, messages: readonly Message[]) {
  const sessionId = randomUUID();
  const managers = await Promise.all(
    Array.from({ length: workers }, () => createRedisContext({ url, keyPrefix: KEY_PREFIX, sessionId, tokenizer: "estimate" })),
  );
  return driveWorkers(managers, turns, messages);
}

/** The floor: the same JSON bodies, one RPUSH each from `workers` connections, awaited one by one, serving no views. */
async function rawRun(url: string, { workers, turns }: SharedSessionCase, messages: readonly Message[]): Promise<number> {
  const clients = Array.from({ length: workers }, () => new Redis(url));
  // Connected before the clock starts, as the managers are when created: the loop times its RPUSHes only.
  await Promise.all(clients.map((client) => client.ping()));
  const key = `${KEY_PREFIX}raw:${randomUUID()}`;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client, worker) => {
      for (let turn = 0; turn < turns; turn += 1) await client.rpush(key, JSON.stringify(messageFor(messages, turns, worker, turn)));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await clients[0]!.del(key);
  await Promise.all(clients.map((client) => client.quit()));
  return (workers * turns) / seconds;
}

export function measureSharedSession(
  url: string,
  cases: readonly SharedSessionCase[],
  messages: readonly Message[],
  rounds: number,
): Promise<SharedSessionRate[]> {
  return measureSharedSessionRates(cases, rounds, {
    ctxkit: (sharedCase) => ctxkitRun(url, sharedCase, messages),
    raw: (sharedCase) => rawRun(url, sharedCase, messages),
  });
}
