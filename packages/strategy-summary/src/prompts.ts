// The default prompts, and how they combine into one `instructions` string for the summarizer.

export interface SummaryPrompts {
  /** Who the summarizer is and what a good summary keeps. */
  readonly system: string;
  /** Asked when there is no previous summary. */
  readonly first: string;
  /** Asked when a previous summary is extended with newer messages. */
  readonly update: string;
}

export const DEFAULT_PROMPTS: SummaryPrompts = Object.freeze({
  system: [
    "You summarize part of a conversation between a user and an AI agent that uses tools.",
    "The agent will continue the work with your summary in place of those messages, so keep what it needs:",
    "the user's goals and requests, decisions and their reasons, what was learned from tool results,",
    "files read and changed and how, errors and how they were resolved, and the work still open.",
    "Write plain, dense notes in the third person. Never invent facts. Answer with the summary only.",
  ].join(" "),
  first: "Summarize the conversation below.",
  update: [
    "Update the previous summary with the newer messages below.",
    "Keep what still matters from it, add what is new, drop what was superseded, and answer with the complete updated summary.",
  ].join(" "),
});

/**
 * The prompt for one summarizer call. `callerInstructions` (`compact({ instructions })`) come last, after the
 * length, so that what the caller asked to keep or stress is the last thing the summarizer reads.
 */
export function buildInstructions(
  prompts: SummaryPrompts,
  hasPreviousSummary: boolean,
  maxTokens: number,
  callerInstructions?: string,
): string {
  const task = hasPreviousSummary ? prompts.update : prompts.first;
  const asked =
    callerInstructions === undefined || callerInstructions.trim() === ""
      ? ""
      : `\n\nInstructions for this summary: ${callerInstructions.trim()}`;
  return `${prompts.system}\n\n${task}\n\nKeep the summary under about ${maxTokens} tokens.${asked}`;
}
