// A ctxkit view as an Anthropic Messages request: system split out, tool results right after their calls.
import { ContextValidationError, toProviderMessages, type ContentPart, type Message, type ToolCall } from "@ctxkit/core";
import type {
  AssistantMessageParam,
  ContentBlockParam,
  TextBlockParam,
  ToolResultBlockParam,
  UserMessageParam,
} from "@anthropic-ai/sdk/resources/messages";
import { isKeptBlock, toImageBlock } from "./anthropic-blocks.js";
import { encodeToolCallId, stripReasoning, toolInputFromArguments, unsupportedPartError } from "@ctxkit/core/kit";
import { placeCacheBreakpoints, type CacheOptions } from "./cache-breakpoints.js";
import { forAnthropicModel } from "./anthropic-provenance.js";

export type AnthropicMessageParam = UserMessageParam | AssistantMessageParam;

export interface AnthropicRequest {
  /** The system and developer messages, in order, as text blocks; absent when there are none. */
  system?: TextBlockParam[];
  messages: AnthropicMessageParam[];
}

export interface ToAnthropicOptions extends CacheOptions {
  /**
   * Anthropic refuses a conversation that opens with the assistant, which a view can do once the messages
   * before an assistant turn were compacted away: a user message with this text is put first then.
   */
  openingUserText?: string;
  /**
   * The model the request goes to. Thinking blocks, reasoning items and compaction items whose recorded provenance
   * (`metadata.provenance`) names another model are left out, a compaction block's readable summary sent as text
   * instead; items with no provenance go as they are. Without it, every item goes as stored.
   */
  targetModel?: string;
}

export const DEFAULT_OPENING_USER_TEXT = "(earlier messages left out)";

const isAnthropicThinking = (part: ContentPart) => part.type === "thinking" || part.type === "redacted_thinking";

/**
 * The view as `{ system, messages }` for `client.messages.create`. System and developer messages go to
 * `system`; each assistant's tool calls become `tool_use` blocks, and the tool messages that answer them one
 * user message of `tool_result` blocks right after it; consecutive messages of one role merge, so roles
 * alternate. Image URLs become base64 (data URLs) or url sources. `cache_control` breakpoints go on the
 * stable prefix (see `CacheOptions`). A part Anthropic cannot take throws `ContextValidationError`.
 */
export function toAnthropicMessages(view: readonly Message[], options: ToAnthropicOptions = {}): AnthropicRequest {
  const system: TextBlockParam[] = [];
  const messages: { role: "user" | "assistant"; content: ContentBlockParam[] }[] = [];
  // Where each view message's last block landed, so a breakpoint can be put after a given message.
  const ends: ({ message: number; block: number } | undefined)[] = [];

  // Reasoning of other providers is left out whole; Anthropic's own thinking blocks go back byte-identical.
  // Items another model produced are left out first: only the model that signed them can verify them.
  stripReasoning(toProviderMessages(forAnthropicModel(view, options.targetModel)), { keep: isAnthropicThinking }).forEach(
    (message, index) => {
      if (message.role === "system" || message.role === "developer") {
        system.push(...toSystemBlocks(message.content, index));
        ends.push(undefined);
        return;
      }
      const role = message.role === "assistant" ? "assistant" : "user";
      const blocks = toBlocks(message, index);
      const last = messages.at(-1);
      if (blocks.length === 0) {
        // A message with no block (an empty text, an assistant turn with no calls) has nothing Anthropic accepts.
        ends.push(undefined);
        return;
      }
      if (last !== undefined && last.role === role) last.content.push(...blocks);
      else messages.push({ role, content: blocks });
      ends.push({ message: messages.length - 1, block: messages[messages.length - 1]!.content.length - 1 });
    },
  );

  if (messages.length === 0)
    throw new ContextValidationError([
      {
        path: "",
        message:
          "the view has no user or assistant content Anthropic can take (empty or whitespace-only messages are left out); add a user message with content before sending",
      },
    ]);
  placeCacheBreakpoints({ view, system, messages, ends }, options);
  // A compaction block opens the conversation itself: the API takes it first, with nothing before it.
  if (messages[0]?.role === "assistant" && (messages[0].content[0]?.type as string | undefined) !== "compaction")
    messages.unshift({ role: "user", content: [{ type: "text", text: options.openingUserText ?? DEFAULT_OPENING_USER_TEXT }] });
  return { ...(system.length > 0 ? { system } : {}), messages };
}

// Anthropic refuses text blocks with no visible character: such text is no block at all.
const isBlank = (text: string) => text.trim() === "";

function toSystemBlocks(content: string | readonly ContentPart[], index: number): TextBlockParam[] {
  if (typeof content === "string") return isBlank(content) ? [] : [{ type: "text", text: content }];
  return content.flatMap((part, position): TextBlockParam[] => {
    if (part.type === "text" && typeof part.text === "string") return isBlank(part.text) ? [] : [{ type: "text", text: part.text }];
    throw refused(index, position, part, "a system prompt (text only)");
  });
}

function toBlocks(message: Exclude<Message, { role: "system" | "developer" }>, index: number): ContentBlockParam[] {
  switch (message.role) {
    case "user":
      return toContentBlocks(message.content, index, "a user message");
    case "assistant": {
      const text = message.content === null ? [] : toContentBlocks(message.content, index, "an assistant message");
      return [...text, ...(message.tool_calls ?? []).map(toToolUse)];
    }
    case "tool": {
      const result: ToolResultBlockParam = {
        type: "tool_result",
        tool_use_id: encodeToolCallId(message.tool_call_id),
        content: typeof message.content === "string" ? message.content : toToolResultContent(message.content, index),
      };
      return [message.is_error === true ? { ...result, is_error: true } : result];
    }
  }
}

function toContentBlocks(content: string | readonly ContentPart[], index: number, where: string): ContentBlockParam[] {
  if (typeof content === "string") return isBlank(content) ? [] : [{ type: "text", text: content }];
  return content.flatMap((part, position): ContentBlockParam[] => {
    if (part.type === "text" && typeof part.text === "string") return isBlank(part.text) ? [] : [{ type: "text", text: part.text }];
    if (part.type === "refusal" && typeof part.refusal === "string")
      return isBlank(part.refusal) ? [] : [{ type: "text", text: part.refusal }];
    if (
      part.type === "image_url" &&
      typeof part.image_url === "object" &&
      part.image_url !== null &&
      "url" in part.image_url &&
      typeof part.image_url.url === "string"
    ) {
      const image = toImageBlock(part.image_url.url);
      if (image !== undefined) return [image];
    }
    if (isKeptBlock(part)) return [part];
    throw refused(index, position, part, where);
  });
}

function toToolResultContent(content: readonly ContentPart[], index: number): Exclude<ToolResultBlockParam["content"], undefined> {
  return toContentBlocks(content, index, "a tool result").map((block) => {
    if (block.type === "text" || block.type === "image" || block.type === "document" || block.type === "search_result") return block;
    throw new ContextValidationError([{ path: "content", message: `a tool result takes no "${block.type}" block` }], { index });
  });
}

/** Arguments that are not a JSON object travel by the kit's one policy (see `toolInputFromArguments`). */
function toToolUse(call: ToolCall): ContentBlockParam {
  return {
    type: "tool_use",
    id: encodeToolCallId(call.id),
    name: call.function.name,
    input: toolInputFromArguments(call.function.arguments),
  };
}

function refused(index: number, position: number, part: ContentPart, where: string) {
  return unsupportedPartError({ provider: "Anthropic", index, position, partType: part.type, where });
}
