// The text of a message's content, the way every adapter reads it.
import type { ContentPart } from "../messages/message.js";

/** A part's text: a text part's `text`, a refusal's `refusal`, and `""` for any other part. */
export function textOfPart(part: ContentPart): string {
  if (part.type === "text" && typeof part.text === "string") return part.text;
  if (part.type === "refusal" && typeof part.refusal === "string") return part.refusal;
  return "";
}

/** A content's text: the string itself, or the text of its parts joined with `separator` (default none). */
export function textOfContent(content: string | readonly ContentPart[] | null, separator = ""): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content
    .filter((part) => part.type === "text" || part.type === "refusal")
    .map(textOfPart)
    .join(separator);
}

/** A content as parts: a string becomes one text part (none when empty), `null` none. */
export function partsOfContent(content: string | readonly ContentPart[] | null): readonly ContentPart[] {
  if (content === null) return [];
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  return content;
}
