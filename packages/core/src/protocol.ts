// The context-manager protocol: what an orchestrator calls, and the optional capabilities.
import type { Message } from "./messages/message.js";
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
