// What `describeAdapter` and `runAdapterConformance` test: an adapter as two conversions and its provider's rules.
import type { ContextManager, Message } from "@ctxkit/core";

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
  /**
   * Whether the provider's shape carries a tool result's error flag (`is_error`), whatever the result's
   * content (a string or text parts): the round trip then keeps it. Anthropic and the AI SDK do; Chat
   * Completions and Responses have no such field. Default false.
   */
  keepsToolErrors?: boolean;
  /** The adapter's loop wrapper, for the loop checks; without it they are skipped, and say so. */
  loop?: AdapterLoop;
}

/**
 * A provider's usage by meaning, as the loop checks script it: the subject puts each figure in its API's own
 * field (`input` in Anthropic's `input_tokens`, OpenAI's `prompt_tokens`). `undefined` leaves a field out.
 */
export interface ScriptedUsage {
  /** The prompt's tokens (for Anthropic, those after the last cache breakpoint). */
  readonly input?: unknown;
  /** Cached prompt tokens a provider reports beside `input`, to be added to it (Anthropic's `cache_read_input_tokens`). */
  readonly cacheRead?: unknown;
  readonly output?: unknown;
}

/** How the provider answers one request: with `text` and `usage`, or by rejecting it as too long. */
export type ScriptedAnswer =
  | { readonly kind: "answer"; readonly text: string; readonly usage: ScriptedUsage | null }
  | { readonly kind: "too-long" };

/**
 * A provider that counts `ratio` tokens for each of the manager's and holds a `window` of its own tokens: a
 * request over it is rejected as too long, any other answered with `text` and the usage it counted. Which of
 * the two a request gets depends on the request, so a subject resolves it per request with `replyTo`.
 */
export interface CountedReply {
  readonly kind: "counted";
  readonly text: string;
  readonly ratio: number;
  readonly window: number;
}

/** How the provider answers every request of one loop call: the same way each time, or counted per request. */
export type ScriptedReply = ScriptedAnswer | CountedReply;

/** What a caller gives a loop call: only the messages new since the last call, or the whole conversation. */
export type LoopInput = "new" | "whole";

/**
 * A loop wrapper (`contextMessages`, the AI SDK middleware, …) driven by the kit: over a manager it makes,
 * with a provider (an imitation, a fake client) that answers as the kit scripts. The loop checks hold it to
 * one rule: what a call stored agrees with what it returned.
 */
export interface AdapterLoop {
  /** The inputs the loop takes: `["new"]` for a loop whose manager holds the conversation, both for the AI SDK's. */
  readonly inputs: readonly LoopInput[];
  /** Whether a usage figure may be a number JSON cannot carry (NaN, Infinity): false for a provider over HTTP. Default true. */
  readonly carriesNonJsonNumbers?: boolean;
  /**
   * Whether the SDK itself refuses a response whose usage is malformed before the loop sees it (the AI SDK's
   * providers check it with a schema). Such a call may then reject, and must still store nothing. Default false:
   * a call the provider answered resolves, whatever its usage.
   */
  readonly sdkRefusesMalformedUsage?: boolean;
  /**
   * Whether the scripted provider passes each request it receives (its messages, in the SDK's shape) to
   * `replyTo(reply, request)` and answers as that says, so a reply may depend on the request. Required by the
   * over-counting check, skipped without it. Default false.
   */
  readonly repliesPerRequest?: boolean;
  /**
   * One call of the loop over `manager` (the same manager for one conversation, a new one for the next),
   * sending `input` (ctxkit messages, converted to the SDK's shape), with every request answered as `reply`
   * says (as `replyTo(reply, request)` says, for a loop that `repliesPerRequest`). Resolves or rejects as the loop does.
   */
  call(manager: ContextManager, input: readonly Message[], reply: ScriptedReply): Promise<unknown>;
}

export interface AdapterConformanceOptions {
  /** Generated histories per check. Default 40. */
  readonly runs?: number;
  readonly seed?: number;
  readonly path?: string;
}

export const DEFAULT_ADAPTER_RUNS = 40;

/** Scripted conversations per loop check: each is a few calls over a fresh manager. */
export const DEFAULT_LOOP_RUNS = 15;
