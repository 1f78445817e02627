// @ctxkit/google: ctxkit views as Gemini contents, and Gemini contents back into a manager.
export {
  toGeminiContents,
  DEFAULT_OPENING_USER_TEXT,
  SKIP_THOUGHT_SIGNATURE_VALIDATOR,
  type GeminiRequest,
  type ToGeminiOptions,
} from "./to-gemini-contents.js";
export { fromGeminiContents, type FromGeminiOptions } from "./from-gemini-contents.js";
export { functionCallIdFor } from "./function-call-ids.js";
export { geminiProvenance } from "./gemini-provenance.js";
export { GEMINI_THOUGHT, GEMINI_THOUGHT_SIGNATURE, GEMINI_PART } from "./gemini-parts.js";
export {
  contextModels,
  type ContextModels,
  type ContextModelsOptions,
  type ContextGenerateContentParameters,
} from "./loop/context-models.js";
export type { ContextStream } from "@ctxkit/core/kit";
export { parseGeminiUsage } from "./loop/gemini-usage.js";
export { isContextLengthError } from "./loop/is-context-length-error.js";
