// The AI SDK's side of the provenance policy: a reasoning part (its signature or encrypted content in
// `providerOptions`) goes back only to the provider and model that produced it.
import type { Message } from "@ctxkit/core";
import { applyProvenancePolicy, type Provenance } from "@ctxkit/core/kit";

/** A model as the AI SDK names it: a `LanguageModel` instance, or a step's `model` info. */
export interface ModelIdentity {
  readonly provider: string;
  readonly modelId: string;
}

/** Whether a value names a model (a string model id, resolved by a gateway, does not). */
export function isModelIdentity(value: unknown): value is ModelIdentity {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as ModelIdentity).provider === "string" &&
    typeof (value as ModelIdentity).modelId === "string"
  );
}

/**
 * The provenance of a response: the model's provider id (`openai.responses`) and the model id the response names
 * (else the model's). Undefined when either is empty: a record that names nobody would only be refused.
 */
export function modelProvenance(model: ModelIdentity, responseModelId?: string): Provenance | undefined {
  const id = responseModelId === undefined || responseModelId === "" ? model.modelId : responseModelId;
  return model.provider === "" || id === "" ? undefined : { provider: model.provider, model: id };
}

/**
 * The view as `target` may receive it (see `applyProvenancePolicy`): reasoning parts, thinking blocks and compaction
 * items another provider family or model produced are left out, whole. Without a target, the view as it is.
 */
export function forLanguageModel(view: readonly Message[], target: ModelIdentity | undefined): Message[] {
  return applyProvenancePolicy(view, { target: target === undefined ? undefined : { provider: target.provider, model: target.modelId } });
}
