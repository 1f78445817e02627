// Message content between ctxkit and LangChain: strings stay strings, blocks pass through, images become `image_url` parts.
import type { ContentPart, ImageUrlPart } from "@ctxkit/core";
import type { InputRecord } from "@ctxkit/core/kit";
import type { MessageContent } from "@langchain/core/messages";

/**
 * Blocks that restate an AI message's `tool_calls` inside its content (LangChain's v1 output): the calls
 * themselves are read from `tool_calls`, so these are left out rather than stored twice.
 */
const RESTATED_CALL_BLOCKS: ReadonlySet<string> = new Set(["tool_call", "tool_call_chunk", "invalid_tool_call"]);

/**
 * A ctxkit content as LangChain's. Every part passes through as a copy (a view's messages are frozen, and a chat
 * model integration may write to what it is given): `text` and `image_url` are blocks every integration takes,
 * and the rest (reasoning, files, refusals) is the integration's to send or leave out, as for its own messages.
 */
export function toLangchainContent(content: string | readonly ContentPart[] | null): MessageContent {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => structuredClone(part)) as MessageContent;
}

/** A standard `image` block's source as a URL: its `url`, or its base64 `data` as a data URL. */
function imageUrlOf(block: InputRecord): string {
  const url = block.optionalString("url");
  if (url !== undefined) return url;
  const data = block.string("data");
  // LangChain's v1 blocks say `mimeType`, its older data blocks `mime_type`; a block with neither is taken as PNG.
  const mimeType = block.optionalString("mimeType") ?? block.optionalString("mime_type") ?? "image/png";
  return `data:${mimeType};base64,${data}`;
}

function toImageUrlPart(block: InputRecord): ImageUrlPart {
  if (typeof block.value["image_url"] === "string") return { type: "image_url", image_url: { url: block.string("image_url") } };
  const image = block.record("image_url");
  return {
    ...(block.value as object),
    type: "image_url",
    image_url: { ...(image.value as object), url: image.string("url") },
  };
}

/**
 * LangChain content as ctxkit's. Blocks are kept as they are, except images: LangChain's `image_url` block
 * (whose `image_url` may be a bare string) and its standard `image` block (`url`, or `data` with a MIME type)
 * become ctxkit `image_url` parts, which every view counts as an image rather than as text.
 */
export function fromLangchainContent(entry: InputRecord): string | ContentPart[] {
  const content = entry.stringOrRecords("content");
  if (typeof content === "string") return content;
  return content.flatMap((block): ContentPart[] => {
    const type = block.nonEmptyString("type");
    if (RESTATED_CALL_BLOCKS.has(type)) return [];
    if (type === "text") return [{ ...(block.value as object), type: "text", text: block.string("text") }];
    if (type === "image_url") return [toImageUrlPart(block)];
    if (type === "image" && (block.has("url") || block.has("data"))) return [{ type: "image_url", image_url: { url: imageUrlOf(block) } }];
    return [{ ...(block.value as object), type } as ContentPart];
  });
}
