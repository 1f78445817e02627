// The strategy contract: a strategy turns one view draft into a smaller one, keeping units whole.
import type { ContextEventListener, PipelineStep } from "../events.js";
import type { Message } from "../messages/message.js";
import type { TokenCounter } from "../tokens/token-counter.js";
import type { ToolUnit } from "../units/tool-unit.js";

// A step is what `context:post_compact` reports, so it is defined with the events, which sit below the pipeline.
export type { PipelineStep };

/** Where a view entry came from: the history (by index) or ctxkit itself. */
export type EntrySource = { readonly kind: "history"; readonly index: number } | { readonly kind: "synthetic"; readonly origin: string };

/**
 * How a strategy shortened a history message. Kept on the entry, never in the message: a caller's
 * metadata can then never pass for ctxkit's own mark.
 */
export interface ContextEdit {
  /** The strategy that last shortened the message. */
  readonly strategy: string;
  /** Tokens of the message before any strategy shortened it. */
  readonly originalTokens: number;
}

export interface ViewEntry {
  readonly message: Message;
  /** Tokens of `message`, counted with the manager's counter (`countMessageTokens`). */
  readonly tokens: number;
  readonly source: EntrySource;
  /** Set when a strategy shortened this history message (`replaceEntryMessage`). */
  readonly edit?: ContextEdit;
  /** Pinned through the manager (`pinMessage`), not in the message's metadata: protected like a pinned message. */
  readonly pinned?: true;
}

/** An immutable candidate view. Build one with `createViewDraft`; never mutate it. */
export interface ViewDraft {
  readonly entries: readonly ViewEntry[];
  /** Sum of the entries' tokens. */
  readonly tokens: number;
  /** Units over `entries`, in order: an assistant with tool calls plus its results, or one message. */
  readonly units: readonly ToolUnit[];
  /** Index in `entries` of the latest user message, or -1. */
  readonly latestUserIndex: number;
  /**
   * Where the current turn begins: the latest user message, or the last unit when there is no user
   * message. The current turn may be shortened but never dropped.
   */
  readonly currentTurnStart: number;
}

/** A small key-value store each strategy gets for itself; persistent managers keep it across restarts. */
export interface StrategyStateStore {
  get<T = unknown>(key: string): T | undefined;
  /**
   * Every key set now, in no set order (for a shared store, as of the last sync). A strategy that keeps
   * a collection can give each item its own key and list them, rather than rewrite one list key, which
   * another writer of a shared session may have changed meanwhile (`ContextStateConflictError`).
   */
  keys(): string[];
  set(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface StrategyContext {
  /** The budget the final view must fit. */
  readonly budget: number;
  /** The pipeline stops once the view is at or below this. */
  readonly target: number;
  readonly counter: TokenCounter;
  /** The whole history, read-only. */
  readonly history: readonly Message[];
  readonly signal: AbortSignal;
  /** The first N history messages that no strategy may drop. */
  readonly protectFirst: number;
  /** This strategy's own state. */
  readonly state: StrategyStateStore;
  readonly emit: ContextEventListener;
  /** Counts a message the way the manager does (text, tool-call JSON, per-message overhead). */
  countMessage(message: Message): number;
  /**
   * Set when the caller asked for a compaction (`compact()`, like `/compact`): every strategy runs,
   * whatever the view's size. A strategy that shortens or clears does all it does (as if the target
   * were 0), a summary covers everything before the current turn, and one that drops units still
   * stops at the target.
   */
  readonly forced?: boolean;
  /**
   * What the caller asked the compaction to keep or stress (`compact({ instructions })`), set only on that
   * forced compaction. A strategy that writes text (a summary) should follow it; the others may ignore it.
   */
  readonly instructions?: string;
  /**
   * The request the model last saw, when this process built one since the history was last set: the
   * view the previous request returned, exactly (the same frozen messages, `metadata` included, which
   * adapters leave out as they send), the tools it was asked with (`RequestOptions.tools`) and the model it
   * was for (`RequestOptions.model`). A
   * summary strategy can send it unchanged as the prefix of its own request, so the provider reads that
   * prefix from its prompt cache. Absent in previews, after a restart, and before the first request.
   */
  readonly previousRequest?: PreviousRequest;
}

/** What `StrategyContext.previousRequest` holds. */
export interface PreviousRequest {
  readonly messages: readonly Message[];
  readonly tools?: readonly unknown[];
  /** The model that request was sent to (`RequestOptions.model`), when the caller named it: the model its cached prefix serves. */
  readonly model?: string;
}

export interface StrategyResult {
  view: ViewDraft;
  /** Whether the strategy changed anything. */
  applied: boolean;
}

export interface Strategy {
  readonly name: string;
  /**
   * Set by a strategy that also runs after a pause: when no request came for this long, the next one
   * runs it (alone, with a target of 0) even under the threshold. The compaction's reason is `idle`.
   */
  readonly idleAfterMs?: number;
  /**
   * Set by a strategy that keeps a limit on every view, not only at a compaction (a window of
   * messages): when it returns true for the view as it stands, the request runs it alone, under the
   * threshold too. The compaction's reason is `limit`. It must be cheap, and false once `apply` ran.
   */
  exceedsLimit?(view: ViewDraft, context: Pick<StrategyContext, "protectFirst">): boolean;
  apply(view: ViewDraft, context: StrategyContext): Promise<StrategyResult> | StrategyResult;
  /**
   * Optional work between requests, off the request path: called after a request has been answered,
   * never two at once, and aborted when the manager closes. A session memory keeps its summary up to
   * date here, so `apply` needs no LLM call. A failure is reported as `context:strategy_error`.
   */
  observe?(context: ObserveContext): Promise<void> | void;
}

/** What `observe` sees: the history as it was when the request was answered, and the strategy's own state. */
export interface ObserveContext {
  readonly history: readonly Message[];
  readonly state: StrategyStateStore;
  readonly counter: TokenCounter;
  readonly signal: AbortSignal;
  readonly emit: ContextEventListener;
  countMessage(message: Message): number;
}

export interface PipelineResult {
  view: ViewDraft;
  steps: PipelineStep[];
}
