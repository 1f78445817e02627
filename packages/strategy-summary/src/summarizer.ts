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
}

/** Returns the summary text: the complete updated summary when `previousSummary` is given. */
export type Summarizer = (request: SummarizerRequest) => Promise<string>;
