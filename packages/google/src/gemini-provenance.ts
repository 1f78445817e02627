// Gemini's side of the provenance policy: thoughts and thought signatures go back only to the model that made them.
import type { Message } from "@ctxkit/core";
import { applyProvenancePolicy, type Provenance } from "@ctxkit/core/kit";

export const GOOGLE_PROVIDER = "google";

/** A model as Gemini names it in a request, `models/gemini-2.5-flash` or `gemini-2.5-flash`: the latter. */
const modelId = (model: string) => model.replace(/^models\//, "");

/** The provenance of a Gemini answer: Google, and the model the request named. */
export function geminiProvenance(model: string): Provenance {
  return { provider: GOOGLE_PROVIDER, model: modelId(model) };
}

/**
 * The view as `targetModel` may receive it (see `applyProvenancePolicy`): thoughts and thought signatures, and any
 * other provider's reasoning, that another model produced are left out, whole. Without a target, the view as it is.
 */
export function forGeminiModel(view: readonly Message[], targetModel: string | undefined): Message[] {
  return applyProvenancePolicy(view, {
    target: targetModel === undefined ? undefined : { provider: GOOGLE_PROVIDER, model: modelId(targetModel) },
  });
}
