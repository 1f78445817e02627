// Where the messages a summary covers stand in the conversation the model last saw, if they stand there whole and in order.
import type { Message } from "@ctxkit/core";
import type { PreviousRequest } from "@ctxkit/core/kit";
import { buildPrefixSummaryAsk } from "./prefix-summary-ask.js";
import type { SummarizerConversation, SummarizerRequest } from "./summarizer.js";

/**
 * The most messages inside the covered run that may stay (the latest user message of a long tool-calling turn,
 * a pinned message): the ask names each, and a longer list is better sent as a transcript.
 */
const MAX_KEPT_INSIDE = 3;

/**
 * `covered` found in `previous` in order, each the very object the history holds: the view reuses the history's
 * frozen messages, so identity proves the model saw each one whole. A message the view held shortened, or left
 * out, or one added since that request, gives undefined: the summarizer then gets only the transcript form.
 */
export function coverInConversation(
  previous: PreviousRequest | undefined,
  covered: readonly Message[],
  request: Pick<SummarizerRequest, "instructions" | "previousSummary">,
): SummarizerConversation | undefined {
  if (previous === undefined || covered.length === 0) return undefined;
  const { messages, tools, model } = previous;
  const positionOf = new Map<Message, number>();
  messages.forEach((message, position) => positionOf.set(message, position));
  const positions: number[] = [];
  for (const message of covered) {
    const position = positionOf.get(message);
    if (position === undefined || position <= (positions.at(-1) ?? -1)) return undefined;
    positions.push(position);
  }
  const start = positions[0]!;
  const end = positions.at(-1)! + 1;
  const isCovered = new Set(positions);
  const kept: number[] = [];
  for (let position = start; position < end; position += 1) if (!isCovered.has(position)) kept.push(position);
  if (kept.length > MAX_KEPT_INSIDE) return undefined;
  const cover = { start, end, kept };
  const ask = buildPrefixSummaryAsk(request, { messages, cover });
  return { messages, ...(tools === undefined ? {} : { tools }), ...(model === undefined ? {} : { model }), cover, ask };
}
