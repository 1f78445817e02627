// The store suite's check of append times: a store that reports `lastAddedAt` reports the time of its newest append, and keeps it.
import { randomUUID } from "node:crypto";
import type { Message } from "@ctxkit/core";
import type { MessageStore, StoreUpdate } from "@ctxkit/core/kit";
import { expect } from "vitest";
import type { StoreCheck } from "./store-check.js";

const APPENDS = 3;

/** Resolves once `Date.now()` has passed `time`: appends a millisecond apart have times a store cannot mix up. */
async function clockPast(time: number): Promise<void> {
  while (Date.now() <= time) await new Promise((resolve) => setTimeout(resolve, 1));
}

const syncedTime = (update: StoreUpdate | undefined): number | undefined =>
  update?.kind === "appended" ? update.lastAddedAt : update?.kind === "reset" ? update.session.lastAddedAt : undefined;

/**
 * `lastAddedAt` is optional: a store that never reports it passes. One that does must report, after each
 * append, a time between the moments just before and just after that append (at its next `sync`, for a
 * shared store, and at a load after a restart), never earlier than the one before, and the same after a
 * restart as before it.
 */
export function storeTimeChecks(
  factory: (sessionId: string) => MessageStore | Promise<MessageStore>,
  samples: { readonly message: (index: number) => Message },
): StoreCheck[] {
  return [
    {
      title:
        "should report when its newest message was appended (lastAddedAt), if it records times: during that append, and the same after a restart",
      run: async () => {
        const sessionId = randomUUID();
        let store = await factory(sessionId);
        await store.open();
        await store.load();
        let previous: number | undefined;
        for (let index = 0; index < APPENDS; index += 1) {
          const before = Date.now();
          await store.append(samples.message(index));
          const after = Date.now();
          const synced = syncedTime(store.sync === undefined ? undefined : await store.sync());
          await store.close();
          store = await factory(sessionId);
          await store.open();
          const reported = (await store.load()).lastAddedAt;
          // Optional: a store that records no times says nothing, and then has nothing to keep.
          if (previous === undefined && synced === undefined && reported === undefined) break;
          const where = `after append ${index + 1} of ${APPENDS}`;
          if (synced !== undefined) {
            expect(synced, `lastAddedAt at the sync ${where}: not a time during that append`).toBeGreaterThanOrEqual(before);
            expect(synced, `lastAddedAt at the sync ${where}: not a time during that append`).toBeLessThanOrEqual(after);
          }
          expect(reported, `lastAddedAt at the load ${where} and a restart: lost`).toBeTypeOf("number");
          expect(reported, `lastAddedAt at the load ${where} and a restart: not a time during that append`).toBeGreaterThanOrEqual(before);
          expect(reported, `lastAddedAt at the load ${where} and a restart: not a time during that append`).toBeLessThanOrEqual(after);
          if (synced !== undefined) expect(reported, `lastAddedAt changed across the restart ${where}`).toBe(synced);
          expect(reported!, `lastAddedAt went back ${where}`).toBeGreaterThanOrEqual(previous ?? 0);
          previous = reported;
          await clockPast(after);
        }
        await store.close();
      },
    },
  ];
}
