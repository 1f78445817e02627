// What an AI SDK message holds that the OpenAI shape has no field for, kept on the ctxkit message so nothing is lost.
import type { TextPart, ToolResultPart } from "ai";

export type ProviderOptions = NonNullable<TextPart["providerOptions"]>;
export type ToolResultOutput = ToolResultPart["output"];

/** A tool result's `output` type when the content alone does not tell it, and what else its `output` carried. */
export interface ToolOutputHint {
  type: ToolResultOutput["type"];
  reason?: string;
  providerOptions?: ProviderOptions;
}

/**
 * Kept under the `aiSdk` key of a ctxkit message. Like any unknown key it is stored as given and never
 * counted; only this adapter reads it back.
 */
export interface AiSdkHints {
  /** On a tool message: how its content maps back to the result's `output`. */
  output?: ToolOutputHint;
  /** On a tool message: the `providerOptions` of the AI SDK tool message it opened. */
  messageProviderOptions?: ProviderOptions;
  /** On an assistant message whose tool calls were interleaved with other parts: each call's position. */
  callPositions?: number[];
}

export const HINTS_KEY = "aiSdk";

/** Part types that the AI SDK puts in assistant content but ctxkit's tool-pair logic must not take for a call. */
export const WRAPPED_PART_TYPE = "ai-sdk";

export function readHints(value: object): AiSdkHints {
  const hints = (value as Record<string, unknown>)[HINTS_KEY];
  return typeof hints === "object" && hints !== null ? (hints as AiSdkHints) : {};
}

export function readProviderOptions(value: object): ProviderOptions | undefined {
  const options = (value as Record<string, unknown>)["providerOptions"];
  return typeof options === "object" && options !== null ? (options as ProviderOptions) : undefined;
}
