// The context-manager protocol: what an orchestrator calls, and the optional capabilities.
import type { Message } from "./messages/message.js";
import type { CompactionReason } from "./events.js";
import type { PipelineStep } from "./pipeline/strategy.js";

export interface ProviderInfo {
  defaults: { contextWindow?: number; maxOutputTokens?: number };
}

export interface Provider {
  readonly name: string;
  getInfo(): ProviderInfo | Promise<ProviderInfo>;
}

export interface RequestOptions {
  /** @deprecated Prefer `provider`; an explicit budget is still honoured first. */
  tokenBudget?: number;
  provider?: Provider;
  signal?: AbortSignal;
  /**
   * Tool definitions sent beside the messages (OpenAI function tools, or any JSON): counted with the
   * manager's counter and taken off the budget, so the view plus its tools fit. Cached by identity.
   */
  tools?: readonly unknown[];
  /** Tokens to keep free beside the view (a system prompt sent separately, say). */
  reserveTokens?: number;
  /**
   * The model this view is sent to. Never sent anywhere: it tells a later summary whether it can reuse this
   * request's cached prefix (`PreviousRequest.model`), since a provider's prompt cache serves only the model
   * that read it.
   */
  model?: string;
}

export interface ContextManager {
  /** Validates and stores a message. A rejected message leaves the state unchanged. */
  addMessage(message: Message): Promise<void>;
  /** The view to send: fits the budget, keeps tool pairs whole, never rewrites the history. */
  getMessagesForRequest(options?: RequestOptions): Promise<Message[]>;
  /** The whole history since the last `clear()`, never compacted. */
  getMessages(): Promise<Message[]>;
  /** Replaces the history, for session resume. */
  setMessages(messages: Message[]): Promise<void>;
  clear(): Promise<void>;
}

export interface CompactResult {
  /** False only when nothing could be dropped, shortened or summarized. */
  compacted: boolean;
  tokensBefore: number;
  tokensAfter: number;
  steps: readonly PipelineStep[];
}

/**
 * A forced, committed compaction, like `/compact`: it runs the pipeline when asked, under the threshold
 * too. Strategies that shorten or clear (`clear-tool-results`, `trim-long-text`, `offload-tool-results`)
 * do all they do, a summary strategy summarizes everything before the current turn, and strategies that
 * drop units (`truncate`) still stop at the target.
 */
export interface CompactCapability {
  compact(options?: RequestOptions): Promise<CompactResult>;
}

/** A smaller view after a provider rejected the last one as too long. */
export interface OverflowRecoveryCapability {
  recoverOverflow(error: unknown, options?: RequestOptions): Promise<Message[]>;
}

export interface ContextUsage {
  /** Tokens of the last view, counted with the module's own counter. */
  tokens: number;
  /** The request's budget: `tokens + overheadTokens` fit in it. */
  budget: number;
  /** Tokens taken off the budget beside the view: the request's tools and `reserveTokens`. */
  overheadTokens?: number;
  messageCount: number;
  /** Whether the last view was compacted (or reused earlier compaction decisions). */
  compacted: boolean;
  /** Name of the counter that produced `tokens`, e.g. `tiktoken:o200k_base`. */
  counter: string;
}

export interface UsageCapability {
  /** Figures for the last view, or `undefined` before the first request. */
  usage(): Promise<ContextUsage | undefined>;
}

/** Whether the next request would compact, for an orchestrator that compacts between turns (a `/compact` prompt, say). */
export interface ShouldCompactCapability {
  shouldCompact(options?: RequestOptions): Promise<boolean>;
}

/** What a provider reported for the request it was sent (the AI SDK's, OpenAI's or Anthropic's usage). */
export interface ProviderUsage {
  /** Input (prompt) tokens the provider counted for the last view, its tools and anything reserved. */
  inputTokens: number;
  outputTokens?: number;
}

/**
 * Takes the provider's own count for the last view. A steady gap between it and the manager's count
 * recalibrates later budgets, so a model whose tokenizer ctxkit does not have (Claude, Gemini) still
 * gets views that fit.
 */
export interface ProviderUsageCapability {
  reportUsage(usage: ProviderUsage): Promise<void>;
}

/**
 * An edit of the history on a caller's behalf (undoing the last turn, say), applied only over the history
 * the caller read, so that on a shared session it never deletes what another worker added meanwhile.
 */
export interface ConditionalReplaceCapability {
  /**
   * Replaces the history with `messages` when it still is `expected` (what `getMessages()` returned), and
   * applies even when `setMessages` would be ignored (the edit is made over the stored history itself).
   * Otherwise rejects with `ContextHistoryConflictError` and changes nothing: read again, then retry.
   */
  replaceMessages(expected: readonly Message[], messages: Message[]): Promise<void>;
}

/** What a compaction did to one history message. */
export type MessageFate = "kept" | "cleared" | "trimmed" | "summarized" | "dropped";

/** Consecutive history messages (`from` through `to`, inclusive) that met the same fate from the same strategy. */
export interface MessageFateRun {
  readonly from: number;
  readonly to: number;
  readonly fate: MessageFate;
  /** The strategy that cleared, trimmed, summarized or dropped them (`(repair)`: an orphan tool result left out); absent when kept. */
  readonly strategy?: string;
  /** `summarized` only: the summary that stands for them, by its position in the view and the last history index it covers. */
  readonly summary?: { readonly viewIndex: number; readonly coveredThrough: number };
}

/** A compaction's figures, without the per-message fates: what `listCompactions()` returns. */
/**
 * Why the manager compacted when it did, in base-price input tokens under its `cachePricing`. `trigger`:
 * `budget` (the view passed it), `saving` (past the threshold, the reads the excess costs over the requests
 * ahead repay the rewrite it risks wasting), `cache-expired` (a pause outlived the provider's cache, so the
 * rewrite cost nothing extra).
 */
export interface CompactionDecisionRecord {
  readonly trigger: "budget" | "saving" | "cache-expired";
  /** The tokens the compaction aimed for, chosen from the budget and the view's growth. */
  readonly target: number;
  readonly expectedSaving: number;
  readonly rewriteCost: number;
  /** The requests the saving was counted over, and the view's growth per request it was estimated from. */
  readonly requestsAhead: number;
  readonly growthPerRequest: number;
  readonly isCacheExpired: boolean;
  /** Requests since the previous compaction at which the manager deferred one, their view past the threshold. */
  readonly deferredRequests: number;
}

export interface CompactionSummary {
  /** Unique per session: the time it ran plus a random part, so two workers never make the same one. */
  readonly id: string;
  /** When it ran, as an ISO 8601 time. */
  readonly at: string;
  readonly reason: CompactionReason;
  readonly budget: number;
  /** The tokens it aimed for. */
  readonly target: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** How many history messages there were, and how many entries the new view has. */
  readonly historyLength: number;
  readonly viewLength: number;
  /** The pipeline's steps, in order (time taken is left out: it is not a decision). */
  readonly steps: readonly { strategy: string; applied: boolean; tokensBefore: number; tokensAfter: number; skipped?: string }[];
  /** Where the new view stopped matching the previous request's view: the shared prefix, in messages and tokens. */
  readonly sharedPrefix: { readonly messages: number; readonly tokens: number };
  /** For a compaction the manager chose to make (reason `threshold`): the decision and the figures it weighed. */
  readonly decision?: CompactionDecisionRecord;
  /** How many history messages met each fate. */
  readonly fateCounts: Readonly<Record<MessageFate, number>>;
  /** False once only the summary of an older compaction is kept (see `keepCompactionReceipts`). */
  readonly hasFates: boolean;
  /** Set by `compact({ through })`: only history messages 0…through were compacted. */
  readonly through?: number;
  /** True when the caller gave the compaction `instructions`. */
  readonly hasInstructions?: boolean;
  /** When `undoCompaction` undid it (named, or as a later one), as an ISO 8601 time. */
  readonly undoneAt?: string;
}

/** The whole record of one compaction: its figures and what became of every history message. */
export interface CompactionReceipt extends CompactionSummary {
  /** Runs covering every history index once, in order; empty when `hasFates` is false. */
  readonly fates: readonly MessageFateRun[];
}

/** Durable receipts of the compactions a session went through, shared by every worker on the session. */
export interface CompactionReceiptCapability {
  /** Every compaction kept, oldest first, newest last. */
  listCompactions(): Promise<CompactionSummary[]>;
  /** The whole receipt, or `undefined` for an id the session does not keep. */
  getCompaction(id: string): Promise<CompactionReceipt | undefined>;
}

/** What `compact()` takes beyond a request's options, from a manager with `PartialCompactCapability`. */
export interface CompactOptions extends RequestOptions {
  /**
   * Compacts only history messages 0…through: every view entry after them stays exactly as it is. It must be
   * a history index that ends a tool unit (never between a call and its results); otherwise the call rejects
   * with `ContextArgumentError` naming `through` and the nearest indexes that would do, and changes nothing.
   */
  through?: number;
  /** What the summary should keep or stress, handed to the strategies (a summary strategy puts it in its prompt). */
  instructions?: string;
}

/** `compact({ through, instructions })`: a forced compaction of part of the history, with instructions for a summarizer. */
export interface PartialCompactCapability {
  compact(options?: CompactOptions): Promise<CompactResult>;
  /** Says that `compact()` honours `through` and `instructions`. */
  readonly compactsThrough: true;
}

export interface UndoCompactionResult {
  /** The receipts marked undone: the one named, then every later one not undone before, oldest first. */
  readonly undone: readonly string[];
}

/**
 * Takes back a compaction: the next view is built as if it, and every later one, had never happened. The
 * strategies' state each of them replaced is put back, and the state it takes the place of is set aside, not
 * deleted. An unknown id, one already undone, or one whose saved state the bound dropped rejects with
 * `ContextUndoError` and changes nothing.
 */
export interface UndoCompactionCapability {
  undoCompaction(id: string): Promise<UndoCompactionResult>;
}

/** In what form a history message is in the view the next request would get. */
export type ViewForm = "verbatim" | "cleared" | "trimmed" | "summarized" | "dropped";

/**
 * Why a message has its form: `protected` (a system or developer message: never dropped or altered), `pinned`, `current-turn`
 * (never dropped), `protect-first`, `kept` (within the budget), `edited` (cleared or trimmed by `strategy`),
 * `summarized` (by `strategy`, into `summary`), `dropped` (by `strategy`, for the budget).
 */
export type ViewReason = "protected" | "pinned" | "current-turn" | "protect-first" | "kept" | "edited" | "summarized" | "dropped";

export interface ExplainedMessage {
  readonly index: number;
  readonly role: Message["role"];
  /** The message's own tokens (the cached count). */
  readonly tokens: number;
  readonly inView: boolean;
  readonly form: ViewForm;
  /** Tokens it takes in the view (after a clear or trim); 0 when absent. */
  readonly viewTokens: number;
  readonly why: ViewReason;
  readonly strategy?: string;
  readonly summary?: { readonly viewIndex: number; readonly coveredThrough: number };
}

export interface ExplainedSyntheticEntry {
  /** Position in the view. */
  readonly viewIndex: number;
  /** `summary`, `repair`, or a strategy's own source. */
  readonly origin: string;
  readonly tokens: number;
  /** A summary's last covered history index. */
  readonly coveredThrough?: number;
}

/** Tokens of the view (and of the request's tools) by category. */
export interface ViewTotals {
  /** System and developer messages. */
  readonly instructions: number;
  /** The request's tool definitions, when `tools` were given. */
  readonly tools: number;
  readonly user: number;
  readonly assistantText: number;
  readonly toolCalls: number;
  readonly toolResults: number;
  readonly summaries: number;
  /** Other synthetic entries (repair notices, reminders). */
  readonly other: number;
}

/** Why the view the next request would get is what it is. */
export interface ViewExplanation {
  /** What the view may take. */
  readonly budget: number;
  readonly tokens: number;
  /** Set when the next request would compact first, and why. */
  readonly compaction?: CompactionReason;
  /** Leading entries the view shares with the previous request's view, and their tokens. */
  readonly sharedPrefix: { readonly messages: number; readonly tokens: number };
  /** Every history message, by index. */
  readonly messages: readonly ExplainedMessage[];
  readonly synthetic: readonly ExplainedSyntheticEntry[];
  readonly totals: ViewTotals;
}

/** What each history message would be in the next view, and why; computing it changes nothing. */
export interface ExplainViewCapability {
  explainView(options?: RequestOptions): Promise<ViewExplanation>;
}

function hasMethod(value: unknown, name: string): boolean {
  return typeof value === "object" && value !== null && typeof (value as Record<string, unknown>)[name] === "function";
}

export function isContextManager(value: unknown): value is ContextManager {
  return ["addMessage", "getMessagesForRequest", "getMessages", "setMessages", "clear"].every((name) => hasMethod(value, name));
}

export function canCompact<T extends ContextManager>(manager: T): manager is T & CompactCapability {
  return hasMethod(manager, "compact");
}

export function canRecoverOverflow<T extends ContextManager>(manager: T): manager is T & OverflowRecoveryCapability {
  return hasMethod(manager, "recoverOverflow");
}

export function canReportUsage<T extends ContextManager>(manager: T): manager is T & UsageCapability {
  return hasMethod(manager, "usage");
}

export function canTellShouldCompact<T extends ContextManager>(manager: T): manager is T & ShouldCompactCapability {
  return hasMethod(manager, "shouldCompact");
}

export function canTakeProviderUsage<T extends ContextManager>(manager: T): manager is T & ProviderUsageCapability {
  return hasMethod(manager, "reportUsage");
}

export function canReplaceConditionally<T extends ContextManager>(manager: T): manager is T & ConditionalReplaceCapability {
  return hasMethod(manager, "replaceMessages");
}

export function canListCompactions<T extends ContextManager>(manager: T): manager is T & CompactionReceiptCapability {
  return hasMethod(manager, "listCompactions") && hasMethod(manager, "getCompaction");
}

export function canExplainView<T extends ContextManager>(manager: T): manager is T & ExplainViewCapability {
  return hasMethod(manager, "explainView");
}

export function canUndoCompaction<T extends ContextManager>(manager: T): manager is T & UndoCompactionCapability {
  return hasMethod(manager, "undoCompaction");
}

export function canCompactThrough<T extends ContextManager>(manager: T): manager is T & PartialCompactCapability {
  return hasMethod(manager, "compact") && (manager as { compactsThrough?: unknown }).compactsThrough === true;
}
