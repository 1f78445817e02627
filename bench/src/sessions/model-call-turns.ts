// A generated history cut at a model call, and what arrives before each later model call.
import type { Message } from "@ctxkit/core";
import { generateSession } from "./generate-session.js";

/** Messages generated beyond the history, to append during a benchmark. */
const CONTINUATION = 600;

export interface GeneratedTurns {
  /** About the first `size` messages, cut back to just before an assistant message (a model call). */
  readonly history: Message[];
  /** What arrives between two model calls (an assistant message and its tool results, or a user turn), in order. */
  readonly turns: Message[][];
}

/** Splits `messages` before each assistant message: an orchestrator asks for a view before each model call. */
function splitAtModelCalls(messages: readonly Message[]): Message[][] {
  const turns: Message[][] = [];
  for (const message of messages) {
    if (message.role === "assistant" || turns.length === 0) turns.push([]);
    turns.at(-1)!.push(message);
  }
  return turns;
}

/** The seeded session of `generateSession` (1,400-character outputs on average), as a history and its later turns. */
export function generateTurns(size: number): GeneratedTurns {
  const messages = generateSession({ messages: size + CONTINUATION, meanOutputChars: 1_400 });
  let cut = size;
  while (cut > 1 && messages[cut]!.role !== "assistant") cut -= 1;
  // The generator may cut the last turn short: leave it out.
  return { history: messages.slice(0, cut), turns: splitAtModelCalls(messages.slice(cut)).slice(0, -1) };
}
