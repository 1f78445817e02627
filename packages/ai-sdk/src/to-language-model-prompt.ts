// A view as the prompt a language model receives inside the AI SDK (what a middleware sees and returns).
import type { Message } from "@ctxkit/core";
import { isUrlString, splitDataUrl } from "./data-content.js";
import type { LanguageModelPrompt } from "./language-model-types.js";
import { toModelMessages, type ToModelMessagesOptions } from "./to-model-messages.js";

type PromptMessage = LanguageModelPrompt[number];
type PromptPart = Exclude<PromptMessage["content"], string>[number];

function toPromptPart(part: Record<string, unknown>): PromptPart {
  if (part["type"] === "image") {
    // The model layer has no image part: an image is a file with an image type, and a URL is a URL object.
    const { image, mediaType, ...rest } = part;
    return toPromptPart({ ...rest, type: "file", data: image, mediaType: mediaType ?? "image/*" });
  }
  if (part["type"] === "file" && typeof part["data"] === "string" && isUrlString(part["data"])) {
    // A data URL is inline data, as the AI SDK itself passes it on: base64 and its media type.
    const inline = splitDataUrl(part["data"]);
    if (inline === undefined) return { ...part, data: new URL(part["data"]) } as unknown as PromptPart;
    const mediaType = part["mediaType"] === undefined || part["mediaType"] === "image/*" ? inline.mediaType : part["mediaType"];
    return { ...part, data: inline.data, mediaType } as unknown as PromptPart;
  }
  return part as unknown as PromptPart;
}

/** The view, with its own system messages first, as a language-model prompt: contents as part arrays. */
export function toLanguageModelPrompt(view: readonly Message[], options: ToModelMessagesOptions = {}): LanguageModelPrompt {
  const { system, messages } = toModelMessages(view, options);
  const systemMessages: PromptMessage[] =
    system === undefined
      ? []
      : typeof system === "string"
        ? [{ role: "system", content: system }]
        : system.map((message) => ({ ...message }) as PromptMessage);
  const rest = messages.map((message) => {
    const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
    return { ...message, content: (content as Array<Record<string, unknown>>).map(toPromptPart) } as PromptMessage;
  });
  return [...systemMessages, ...rest];
}
