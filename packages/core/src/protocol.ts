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
  /** False when there was nothing to compact. */
  compacted: boolean;
  tokensBefore: number;
  tokensAfter: number;
  steps: readonly PipelineStep[];
}

/** A forced, committed compaction, like `/compact`. */
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
  budget: number;
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
