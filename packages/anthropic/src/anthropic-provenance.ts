// Anthropic's side of the provenance policy: a thinking block goes back only to the model that signed it.
import type { ContentPart, Message } from "@ctxkit/core";
import { applyProvenancePolicy, type Provenance } from "@ctxkit/core/kit";

export const ANTHROPIC_PROVIDER = "anthropic";

/** What a compaction summary written by another model is prefixed with when it is sent as text. */
export const EARLIER_SUMMARY_LABEL = "[Summary of the earlier conversation, written by another model]";

/** The provenance of a Messages response: Anthropic, and the model the response names. */
export function anthropicProvenance(model: string): Provenance {
  return { provider: ANTHROPIC_PROVIDER, model };
}

/**
 * The view as `targetModel` may receive it (see `applyProvenancePolicy`): thinking and redacted_thinking blocks,
 * reasoning items and compaction items another model produced are left out; a compaction block's readable summary
 * goes as a text part that says what it is. Without a target, the view as it is.
 */
export function forAnthropicModel(view: readonly Message[], targetModel: string | undefined): Message[] {
  return applyProvenancePolicy(view, {
    target: targetModel === undefined ? undefined : { provider: ANTHROPIC_PROVIDER, model: targetModel },
    readableText,
  });
}

function readableText(part: ContentPart): string | undefined {
  return part.type === "compaction" && typeof part.content === "string" ? `${EARLIER_SUMMARY_LABEL}\n${part.content}` : undefined;
}
