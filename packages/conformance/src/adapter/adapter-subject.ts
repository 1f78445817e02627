// What `describeAdapter` and `runAdapterConformance` test: an adapter as two conversions and its provider's rules.
import type { Message } from "@ctxkit/core";

/**
 * An adapter between ctxkit messages and a provider's request shape, in a few lines:
 * `{ name: "anthropic", toProvider: toAnthropicMessages, fromProvider: (request) => fromAnthropicMessages(request.messages, request), validate: checkAnthropicRequest }`.
 */
export interface AdapterSubject<Payload = unknown> {
  readonly name: string;
  /** A ctxkit history (a view) as the provider's request payload. */
  toProvider(messages: Message[]): Payload;
  /** The provider's payload (parsed from JSON, or anything else a caller may pass) as ctxkit messages. */
  fromProvider(payload: Payload): Message[];
  /** The provider's request rules: every problem found in a payload `toProvider` made; none when it is valid. */
  validate?(payload: Payload): readonly string[];
  /**
   * The adapter's documented normalizations: the history a round trip is expected to give back for `messages`
   * (Anthropic opens with a user turn, say). Compared after the suite's own (see `canonicalHistory`).
   */
  normalize?(messages: Message[]): Message[];
}

export interface AdapterConformanceOptions {
  /** Generated histories per check. Default 40. */
  readonly runs?: number;
  readonly seed?: number;
  readonly path?: string;
}

export const DEFAULT_ADAPTER_RUNS = 40;
