// The summarizer contract: whatever turns messages (and the previous summary) into summary text.
import type { Message } from "@ctxkit/core";

export interface SummarizerRequest {
  /**
   * Only the messages this summary newly covers, oldest first, taken from the history (not from a
   * view, so no placeholders) with long tool outputs and call arguments already shortened.
   */
  readonly messages: readonly Message[];
  /** The text of the summary being extended, sent once here and never repeated in `messages`. */
  readonly previousSummary: string | undefined;
  /**
   * What to write: the system prompt plus the first-summary or update prompt, and last, when the caller of
   * `compact({ instructions })` gave them, those instructions.
   */
  readonly instructions: string;
  /** Aborted when the request that triggered the summary is given up. */
  readonly signal: AbortSignal;
  /** The length asked for, in tokens; adapters may pass it on as a completion limit. */
  readonly maxTokens?: number;
  /**
   * The conversation as the model last saw it, when the messages this summary covers are a run of it:
   * a summarizer may send it unchanged, then ask for the summary of `cover`, so the provider reads the
   * conversation from its prompt cache instead of being sent a transcript of `messages`. A summarizer
   * that ignores it keeps today's form. Absent when that request is not known (after a restart) or
   * does not hold what this summary covers as it is in the history.
   */
  readonly conversation?: SummarizerConversation;
}

/** The agent's previous request, and where in it the messages a summary covers stand. */
export interface SummarizerConversation {
  /**
   * The messages the previous request returned, the very objects (with `metadata`, which a summarizer
   * leaves out as the agent's adapter did), in order, the system message first.
   */
  readonly messages: readonly Message[];
  /** The tool definitions that request was asked with, as given (`RequestOptions.tools`). */
  readonly tools?: readonly unknown[];
  /**
   * The model that request was sent to (`RequestOptions.model`), when the agent's loop named it: the only model
   * whose prompt cache holds `messages`. A summarizer of another model gains nothing from sending them again.
   */
  readonly model?: string;
  /**
   * `messages[start]` to `messages[end - 1]` are what this summary newly covers, unshortened, but for the few
   * positions in `kept`, which stay in the view as they are (the latest user message of a long tool-calling turn).
   */
  readonly cover: { readonly start: number; readonly end: number; readonly kept: readonly number[] };
  /**
   * The text of the one user message to send after `messages`: `instructions`, which run of the conversation to
   * summarize (named by its first and last messages), and the previous summary. Written here once, so every
   * summarizer asks the same way.
   */
  readonly ask: string;
}

/** Returns the summary text: the complete updated summary when `previousSummary` is given. */
export type Summarizer = (request: SummarizerRequest) => Promise<string>;
