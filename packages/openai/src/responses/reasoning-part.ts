// A Responses reasoning item kept whole inside an assistant message, so it goes back to the API as it came.
import type { ContentPart } from "@ctxkit/core";
import type { ResponseReasoningItem } from "openai/resources/responses/responses";
import { isRecord } from "@ctxkit/core/kit";

/**
 * ctxkit has no reasoning message: the item rides as a content part of the assistant message it preceded
 * (its `type` is already `"reasoning"`), encrypted content and all. Chat Completions takes no such part.
 */
export type ReasoningPart = ResponseReasoningItem;

export function isReasoningPart(part: ContentPart): part is ContentPart & ReasoningPart {
  return part.type === "reasoning" && typeof part.id === "string" && Array.isArray(part.summary) && part.summary.every(isSummaryText);
}

function isSummaryText(value: unknown): boolean {
  return isRecord(value) && value.type === "summary_text" && typeof value.text === "string";
}
