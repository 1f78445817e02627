// Test-only helpers: a StrategyContext and a ViewDraft built from plain messages, counted with estimateCounter.
import type { ContextEventMap, ContextEventName } from "../src/events.js";
import { deepFreeze } from "../src/messages/deep-freeze.js";
import type { Message } from "../src/messages/message.js";
import { createMemoryStateStore } from "../src/pipeline/memory-state-store.js";
import type { EntrySource, StrategyContext, ViewDraft } from "../src/pipeline/strategy.js";
import { createViewDraft } from "../src/pipeline/view-draft.js";
import { countMessageTokens } from "../src/tokens/count-message-tokens.js";
import { estimateCounter } from "../src/tokens/estimate-counter.js";
import { repairToolPairs } from "../src/units/repair-tool-pairs.js";

export interface RecordedEvent {
  event: ContextEventName;
  payload: ContextEventMap[ContextEventName];
}

export interface TestContextOptions {
  target?: number;
  budget?: number;
  protectFirst?: number;
  history?: readonly Message[];
  signal?: AbortSignal;
}

export type TestContext = StrategyContext & { readonly events: RecordedEvent[] };

const counter = estimateCounter();

export function countTestMessage(message: Message): number {
  return countMessageTokens(message, counter);
}

/** A context whose emitted events are recorded in `events`. The target defaults to 0: strategies do all they can. */
export function createTestContext(options: TestContextOptions = {}): TestContext {
  const events: RecordedEvent[] = [];
  const target = options.target ?? 0;
  return {
    budget: options.budget ?? Math.max(target, 1),
    target,
    counter,
    history: options.history ?? [],
    signal: options.signal ?? new AbortController().signal,
    protectFirst: options.protectFirst ?? 0,
    state: createMemoryStateStore(),
    emit: (event, payload) => {
      events.push({ event, payload });
    },
    countMessage: countTestMessage,
    events,
  };
}

/**
 * A draft over `messages`, deep-frozen the way a manager stores them. Sources are history indices unless
 * `sources` is given (e.g. from `repairToolPairs`); a message with `metadata.ctxkit` is synthetic.
 */
export function createTestView(messages: readonly Message[], sources?: readonly EntrySource[]): ViewDraft {
  return createViewDraft(
    messages.map((message, index) => ({
      message: deepFreeze(structuredClone(message)),
      tokens: countTestMessage(message),
      source:
        sources?.[index] ??
        (message.metadata?.ctxkit === undefined
          ? { kind: "history", index }
          : { kind: "synthetic", origin: message.metadata.ctxkit.source }),
    })),
  );
}

/** The view a manager would hand strategies: `history` repaired, each entry sourced to its history index. */
export function createRepairedTestView(history: readonly Message[]): ViewDraft {
  const repaired = repairToolPairs(history);
  const sources = repaired.sources.map(
    (index): EntrySource => (index === null ? { kind: "synthetic", origin: "repair" } : { kind: "history", index }),
  );
  return createTestView(repaired.messages, sources);
}

/** History indices of a view's history entries, in view order. */
export function historyIndices(view: ViewDraft): number[] {
  return view.entries.flatMap((entry) => (entry.source.kind === "history" ? [entry.source.index] : []));
}

// Small message builders, so a test reads as the conversation it sets up.
export const systemMessage = (content: string): Message => ({ role: "system", content });
export const developerMessage = (content: string): Message => ({ role: "developer", content });
export const userMessage = (content: string): Message => ({ role: "user", content });
export const assistantMessage = (content: string): Message => ({ role: "assistant", content });
export const pinnedMessage = (message: Message): Message => ({ ...message, metadata: { ...message.metadata, pinned: true } });
export const toolCallMessage = (...ids: string[]): Message => ({
  role: "assistant",
  content: null,
  tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "bash", arguments: "{}" } })),
});
export const toolResultMessage = (toolCallId: string, content: string): Message => ({
  role: "tool",
  tool_call_id: toolCallId,
  content,
  name: "bash",
});
