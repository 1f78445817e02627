// An aborted request settles at once, whatever the manager is doing, and the manager goes on working.
import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { budgetArbitrary } from "../arbitraries/budget-arbitrary.js";
import { historyArbitrary } from "../arbitraries/history-arbitrary.js";
import { expectSameHistory } from "../checks/expect-same-history.js";
import { describeError, expectThat } from "../checks/violation.js";
import { defineProperty, withManager } from "./property.js";

/** Generous for any machine: a request that heard its abort settles in microseconds; one that did not, never. */
const SETTLE_LIMIT_MS = 5_000;

/** How `promise` settled within `limitMs`: `"settled"` either way, or `"pending"`. */
async function settlesWithin(promise: Promise<unknown>, limitMs: number): Promise<"settled" | "pending"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Promise<"pending">((resolve) => (timer = setTimeout(() => resolve("pending"), limitMs)));
  const settled = promise.then(
    () => "settled" as const,
    () => "settled" as const,
  );
  try {
    return await Promise.race([settled, pending]);
  } finally {
    clearTimeout(timer);
  }
}

export const abortProperty = defineProperty({
  name: "abort",
  title: "should settle an aborted request at once and keep working",
  invariant:
    "A request whose signal is already aborted rejects; one aborted while it runs settles promptly; afterwards the history is unchanged and later calls work.",
  exercises: { tally: "rejected", what: "aborted requests rejected" },
  arbitrary: () => fc.record({ history: historyArbitrary({ broken: true, maxSegments: 8 }), budget: budgetArbitrary({ min: 64 }) }),
  async check({ history, budget }, context) {
    await withManager(context, async (driver) => {
      const { manager } = driver;
      for (const message of structuredClone(history)) await manager.addMessage(message);
      let early: unknown;
      const alreadyAborted = await manager.getMessagesForRequest({ tokenBudget: budget, signal: AbortSignal.abort() }).then(
        () => false,
        (error: unknown) => ((early = error), true),
      );
      expectThat(alreadyAborted, "a request with an already-aborted signal returned a view instead of rejecting");
      expectThat(!(early instanceof TypeError), () => `an aborted request failed with ${describeError(early)}, not the abort reason`);
      const controller = new AbortController();
      const running = manager.getMessagesForRequest({ tokenBudget: budget, signal: controller.signal });
      controller.abort();
      expectThat(
        (await settlesWithin(running, SETTLE_LIMIT_MS)) === "settled",
        `a request aborted while it ran was still pending after ${SETTLE_LIMIT_MS} ms`,
      );
      expectSameHistory(await manager.getMessages(), history as Message[], "after aborted requests");
    });
  },
});
