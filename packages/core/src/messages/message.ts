// The message types: OpenAI Chat Completions wire format, plus a `metadata` bag never meant for the model.

export type Role = "system" | "developer" | "user" | "assistant" | "tool";

// The known parts mirror OpenAI's Chat Completions content parts field for field, so the SDK's own part
// objects (`ChatCompletionContentPartImage`, an interface without an index signature) assign to them.

export interface TextPart {
  type: "text";
  text: string;
}

export interface ImageUrlPart {
  type: "image_url";
  image_url: { url: string; detail?: "auto" | "low" | "high" };
}

export interface InputAudioPart {
  type: "input_audio";
  input_audio: { data: string; format: "wav" | "mp3" };
}

export interface FilePart {
  type: "file";
  file: { file_data?: string; file_id?: string; filename?: string };
}

/** An assistant's refusal, as the model returned it. */
export interface RefusalPart {
  type: "refusal";
  refusal: string;
}

/**
 * Any other typed part (provider-specific blocks) is kept exactly as given. Tool calls and results are
 * not parts: they are `tool_calls` and `tool` messages, and foreign tool parts are rejected.
 */
export interface OtherContentPart {
  type: string;
  [key: string]: unknown;
}

export type ContentPart = TextPart | ImageUrlPart | InputAudioPart | FilePart | RefusalPart | OtherContentPart;

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** ctxkit's own marker on messages it synthesizes (summaries, repair notices). */
export interface CtxkitMetadata {
  /** What produced the message, e.g. `"repair"` or `"summary"`. */
  source: string;
  [key: string]: unknown;
}

/**
 * Which provider and model produced an assistant message, and so its provider-native items (thinking blocks and
 * their signatures, reasoning items and their encrypted content, compaction blocks): only that model can verify them.
 * The loop wrappers record it from the response; each `to…` conversion reads it against its target model.
 */
export interface Provenance {
  /** The provider family: `"anthropic"`, `"openai"`, or an AI SDK provider id (`"openai.responses"`, whose family is `openai`). */
  provider: string;
  /** The model the response named (`response.model`), e.g. `"claude-sonnet-4-6"`. */
  model: string;
  /** The account whose key issued encrypted content (OpenAI binds it to one): a fingerprint, never the key itself. */
  account?: string;
}

export interface MessageMetadata {
  /** A pinned message is never dropped from a view. */
  pinned?: boolean;
  ctxkit?: CtxkitMetadata;
  /** The provider and model that produced this (assistant) message's provider-native items. */
  provenance?: Provenance;
  [key: string]: unknown;
}

interface MessageBase {
  name?: string;
  metadata?: MessageMetadata;
}

export interface SystemMessage extends MessageBase {
  role: "system";
  content: string | ContentPart[];
}

export interface DeveloperMessage extends MessageBase {
  role: "developer";
  content: string | ContentPart[];
}

export interface UserMessage extends MessageBase {
  role: "user";
  content: string | ContentPart[];
}

export interface AssistantMessage extends MessageBase {
  role: "assistant";
  /** `null` only when the message does nothing but call tools. */
  content: string | ContentPart[] | null;
  tool_calls?: ToolCall[];
}

export interface ToolMessage extends MessageBase {
  role: "tool";
  content: string | ContentPart[];
  tool_call_id: string;
  /** The tool failed and `content` says how (Anthropic's `is_error`; providers without the flag leave it out). */
  is_error?: boolean;
}

export type Message = SystemMessage | DeveloperMessage | UserMessage | AssistantMessage | ToolMessage;

export function isPinned(message: Message): boolean {
  return message.metadata?.pinned === true;
}

export function hasToolCalls(message: Message): message is AssistantMessage & { tool_calls: ToolCall[] } {
  return message.role === "assistant" && message.tool_calls !== undefined && message.tool_calls.length > 0;
}

/** System and developer messages are instructions: never dropped, never altered. */
export function isInstruction(message: Message): boolean {
  return message.role === "system" || message.role === "developer";
}

/** True for messages ctxkit synthesized into a view rather than took from the history. */
export function isSynthetic(message: Message): boolean {
  return message.metadata?.ctxkit !== undefined;
}
