// The readable text of a message's content, for summarizers that work on text.
import type { Message } from "@ctxkit/core";

/** Text parts joined by newlines; an image becomes `[image]`, any other part its JSON. */
export function contentText(content: Message["content"]): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content
    .map((part) => {
      if (part.type === "text" && typeof part.text === "string") return part.text;
      if (part.type === "image_url") return "[image]";
      return JSON.stringify(part);
    })
    .join("\n");
}
