// @ctxkit/core/kit: what authors of ctxkit packages build with.

// --- Adapter kit: shared by the adapters between ctxkit messages and each SDK's shapes. ---
export { AdapterInputError, type AdapterInputProblem } from "./adapters/adapter-input-error.js";
export { readAdapterInput, isRecord, InputList, InputRecord, type UnknownRecord } from "./adapters/input-reader.js";
export { acceptMessage } from "./adapters/accept-message.js";
export { unsupportedPartError, type UnsupportedPart } from "./adapters/unsupported-part.js";
export { textOfPart, textOfContent, partsOfContent } from "./adapters/content-text.js";
export {
  toolInputFromArguments,
  toolValueFromArguments,
  argumentsFromToolInput,
  UNPARSED_ARGUMENTS_KEY,
  type ToolInput,
} from "./adapters/tool-arguments.js";
export { encodeToolCallId, decodeToolCallId, isSafeToolCallId } from "./adapters/tool-call-id.js";
export { stripReasoning, isReasoningPart, REASONING_PART_TYPES, type StripReasoningOptions } from "./adapters/strip-reasoning.js";
// --- End of the adapter kit. ---
