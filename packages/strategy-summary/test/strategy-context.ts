// A StrategyContext and ViewDraft built from plain messages, counted with the estimate counter, for direct strategy tests.
import { estimateCounter, type Message } from "@ctxkit/core";
import { countMessageTokens, createViewDraft, deepFreeze, repairToolPairs, type ViewDraft } from "@ctxkit/core/kit";
import { createStrategyContext, type RecordingStrategyContext, type StrategyContextOptions } from "@ctxkit/conformance";

export const counter = estimateCounter();
export const countMessage = (message: Message): number => countMessageTokens(message, counter);

export type TestContextOptions = Pick<StrategyContextOptions, "history"> & Partial<Omit<StrategyContextOptions, "history">>;

export type TestContext = RecordingStrategyContext;

/** Counted with the estimate counter. The target defaults to 50 000: room enough that `keepRecentTokens` alone decides the cut. */
export function createTestContext(options: TestContextOptions): TestContext {
  const target = options.target ?? 50_000;
  return createStrategyContext({ counter, ...options, target, budget: options.budget ?? Math.ceil(target / 0.6) });
}

/** Deep-frozen copies, as a manager stores its history. */
export function freezeHistory(messages: readonly Message[]): Message[] {
  return messages.map((message) => deepFreeze(structuredClone(message)));
}

/** The draft a fresh manager hands its strategies: the whole history, repaired, sourced to history indices. */
export function createFreshView(history: readonly Message[]): ViewDraft {
  const repaired = repairToolPairs(history);
  return createViewDraft(
    repaired.messages.map((message, position) => {
      const index = repaired.sources[position];
      return {
        message,
        tokens: countMessage(message),
        source: index === null || index === undefined ? { kind: "synthetic", origin: "repair" } : { kind: "history", index },
      };
    }),
  );
}

/** A later draft: the previous result plus history messages from `from` on, as a sticky view grows. */
export function appendToView(view: ViewDraft, history: readonly Message[], from: number): ViewDraft {
  const added = history
    .slice(from)
    .map((message, offset) => ({ message, tokens: countMessage(message), source: { kind: "history" as const, index: from + offset } }));
  return createViewDraft([...view.entries, ...added]);
}

/** History indices of a draft's history entries, and `S` for a summary, in order. */
export function describeView(view: ViewDraft): Array<number | string> {
  return view.entries.map((entry) =>
    entry.source.kind === "history" ? entry.source.index : entry.source.origin === "summary" ? "S" : entry.source.origin,
  );
}
