// A ctxkit view as Chat Completions request messages, typed as the openai SDK types them.
import { unsupportedPartError } from "@ctxkit/core/kit";
import { toProviderMessage, type AssistantMessage, type ContentPart, type Message } from "@ctxkit/core";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { cleanForChatCompletion, isChatCompletionClean } from "./chat-completion-keys.js";
import { isFilePart, isImageUrlPart, isInputAudioPart, isRefusalPart, isTextPart } from "../content-parts.js";

type UserPart = Extract<ContentPart, { type: "text" | "image_url" | "input_audio" | "file" }>;
type AssistantPart = Extract<ContentPart, { type: "text" | "refusal" }>;

const isUserPart = (part: ContentPart): part is UserPart =>
  isTextPart(part) || isImageUrlPart(part) || isInputAudioPart(part) || isFilePart(part);
const isAssistantPart = (part: ContentPart): part is AssistantPart => isTextPart(part) || isRefusalPart(part);

// What each role takes, as OpenAI types it.
const ROLE_PARTS: Record<Message["role"], { readonly isAllowed: (part: ContentPart) => boolean; readonly names: string }> = {
  system: { isAllowed: isTextPart, names: "text" },
  developer: { isAllowed: isTextPart, names: "text" },
  tool: { isAllowed: isTextPart, names: "text" },
  user: { isAllowed: isUserPart, names: "text, image_url, input_audio and file" },
  assistant: { isAllowed: isAssistantPart, names: "text and refusal" },
};

/**
 * The view as `ChatCompletionMessageParam[]`: `metadata`, `is_error`, `name` on tool messages, reasoning parts
 * and every key Chat Completions does not take left out (see `CHAT_COMPLETION_MESSAGE_KEYS`), and every message
 * the same frozen object the view holds when it has nothing to strip, so a stable prefix stays byte-identical. ctxkit's message
 * type admits any typed part in any role; OpenAI takes fewer (only text in a system message, say), so a
 * part the role cannot take throws `ContextValidationError` here rather than a 400 from the API.
 */
export function toChatCompletionMessages(view: readonly Message[]): ChatCompletionMessageParam[] {
  return view.map((message, index) => toChatCompletionMessage(message, index));
}

// One clean copy per stored message, so repeated views send the same objects and a prefix stays identical.
const cleanCopies = new WeakMap<Message, Message>();

function cleanMessage(message: Message): Message {
  if (isChatCompletionClean(message)) return message;
  let clean = cleanCopies.get(message);
  if (clean === undefined) {
    clean = Object.freeze(cleanForChatCompletion(message));
    cleanCopies.set(message, clean);
  }
  return clean;
}

/** One message as `ChatCompletionMessageParam`; `index` only names the message in an error. */
export function toChatCompletionMessage(view: Message, index?: number): ChatCompletionMessageParam {
  const message = cleanMessage(toProviderMessage(view));
  switch (message.role) {
    case "system":
    case "developer":
    case "tool":
      if (hasContentOf(message, isTextPart)) return message;
      break;
    case "user":
      if (hasContentOf(message, isUserPart)) return message;
      break;
    case "assistant":
      if (isAssistantContent(message)) return message;
      break;
  }
  throw refusedPart(message, index);
}

function hasContentOf<M extends Message, P extends ContentPart>(
  message: M,
  isAllowed: (part: ContentPart) => part is P,
): message is M & { content: string | P[] } {
  return typeof message.content === "string" || (Array.isArray(message.content) && message.content.every(isAllowed));
}

function isAssistantContent(message: AssistantMessage): message is AssistantMessage & { content: string | AssistantPart[] | null } {
  return message.content === null || hasContentOf(message, isAssistantPart);
}

function refusedPart(message: Message, index: number | undefined) {
  const { isAllowed, names } = ROLE_PARTS[message.role];
  const parts: readonly ContentPart[] = Array.isArray(message.content) ? message.content : [];
  const position = parts.findIndex((part) => !isAllowed(part));
  const where = `a ${message.role} message (only ${names} parts)`;
  return unsupportedPartError({ provider: "Chat Completions", index, position, partType: parts[position]?.type ?? "", where });
}
