// One interface over ctxkit and each peer, so a benchmark drives them all the same way on the same inputs.
import { ContextBudgetError, type Message } from "@ctxkit/core";

/** What a system spent measuring text, for the "tokenizer calls" columns. */
export interface Meter {
  /** Calls into an exact BPE tokenizer (js-tiktoken's encode, ctxkit's count). */
  tokenizerCalls: number;
  /** Message sizes computed, by a tokenizer or by an estimate (one per message per counting pass). */
  messagesMeasured: number;
}

export function createMeter(): Meter {
  return { tokenizerCalls: 0, messagesMeasured: 0 };
}

/**
 * One conversation, held the way the system holds it. A benchmark times `add` only when
 * `isAddTimed`: ctxkit validates and freezes each message, which is its real cost; for a peer, `add`
 * is the adapter converting to the peer's own message type, which an app built on that peer never pays.
 */
export interface ContextSession {
  readonly isAddTimed: boolean;
  add(message: Message): Promise<void> | void;
  /** Hands over a whole history at once (a resumed session): untimed setup. */
  load(messages: readonly Message[]): Promise<void> | void;
  /** Computes the view for one model call, in the system's own format: the part that is timed. */
  request(budget: number): Promise<unknown>;
  /** Converts a computed view back to ctxkit messages, untimed, so every system is checked alike. */
  decode(view: unknown): Message[];
  /**
   * Whether the last request compacted, for a system that knows (ctxkit's `context:pre_compact`);
   * undefined for a stateless trimmer, whose view is compared with the history instead.
   */
  lastRequestCompacted(): boolean | undefined;
  /** Entries of returned views that were not messages (LangChain's `[undefined]`), left out by `decode`. */
  holes(): number;
  /** The view's tokens as the system itself counted them, when it counts with core's exact counter (ctxkit). */
  viewTokens?(): Promise<number | undefined>;
}

export interface ContextSystem {
  /** Stable id, used in tables and to pick the system in a child process. */
  readonly name: string;
  createSession(meter: Meter): ContextSession;
  /** Builds what the system loads once per process (an encoder), so that no timed request pays for it. */
  warmUp?(): void;
}

/** ctxkit's `ContextBudgetError`: a correct answer when even the minimal view cannot fit. */
export function isRefusal(error: unknown): boolean {
  return error instanceof ContextBudgetError;
}

/** Mixed text that exercises every path of an encoder once: prose, JSON, CJK. */
export const WARM_UP_TEXT = 'Warm up the encoder: 上下文窗口 { "path": "src/index.ts", "line": 42 } '.repeat(200);
