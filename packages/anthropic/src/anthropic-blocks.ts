// Anthropic's block types as ctxkit keeps them: parts it has no own form for ride in `content` as given.
import type { ContentPart } from "@ctxkit/core";
import type { ContentBlockParam, ImageBlockParam } from "@anthropic-ai/sdk/resources/messages";

// Blocks with no ctxkit counterpart, kept whole. Tool use and results are not here: they become tool_calls
// and tool messages (core rejects them inside content), so the pair logic sees them.
const KEPT_BLOCK_TYPES: ReadonlySet<string> = new Set([
  "image",
  "document",
  "search_result",
  "thinking",
  "redacted_thinking",
  "server_tool_use",
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
  "container_upload",
  "tool_reference",
  "browser_state",
  "compaction",
]);

export function isKeptBlock(part: ContentPart): part is ContentPart & ContentBlockParam {
  return KEPT_BLOCK_TYPES.has(part.type);
}

/** A block ctxkit keeps, without the `cache_control` it came with: breakpoints are placed per request. */
export function keepBlock<B extends { type: string; cache_control?: unknown }>(block: B): ContentPart {
  const { cache_control: _cacheControl, ...rest } = block;
  return { ...rest, type: block.type };
}

const DATA_URL = /^data:(image\/(?:jpeg|png|gif|webp));base64,(.*)$/s;

/** An image URL as Anthropic takes it: a data URL as a base64 source, any other URL as a url source. */
export function toImageBlock(url: string): ImageBlockParam | undefined {
  const data = DATA_URL.exec(url);
  if (data !== null) {
    const mediaType = data[1];
    if (mediaType === "image/jpeg" || mediaType === "image/png" || mediaType === "image/gif" || mediaType === "image/webp") {
      return { type: "image", source: { type: "base64", media_type: mediaType, data: data[2] ?? "" } };
    }
  }
  if (/^https?:\/\//.test(url)) return { type: "image", source: { type: "url", url } };
  return undefined;
}
