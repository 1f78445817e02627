// Anthropic Messages (request params, or a response `Message`) as ctxkit messages.
import { ContextValidationError, type ContentPart, type Message, type ToolCall, type ToolMessage } from "@ctxkit/core";
import type {
  ContentBlock,
  ContentBlockParam,
  Message as AnthropicResponse,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import { keepBlock } from "./anthropic-blocks.js";

export interface FromAnthropicOptions {
  /** The request's `system`, put first as a system message. */
  system?: string | TextBlockParam[];
}

/**
 * The messages as ctxkit messages for `addMessage`: a user message's `tool_result` blocks become tool
 * messages (before the rest of its content, as Anthropic orders them), an assistant's `tool_use` blocks
 * become `tool_calls` with JSON arguments, base64 and url images become `image_url` parts, and blocks with no
 * ctxkit form (thinking, documents, server tools) are kept as parts. `cache_control` is dropped: breakpoints
 * are placed per request by `toAnthropicMessages`.
 */
export function fromAnthropicMessages(
  messages: readonly (MessageParam | AnthropicResponse)[],
  options: FromAnthropicOptions = {},
): Message[] {
  const result: Message[] = [];
  if (options.system !== undefined) result.push({ role: "system", content: fromSystem(options.system) });
  messages.forEach((message, index) => {
    if (typeof message.content === "string") {
      result.push({ role: message.role, content: message.content });
      return;
    }
    if (message.role === "system") {
      result.push({ role: "system", content: fromSystem(message.content) });
      return;
    }
    const blocks: readonly (ContentBlock | ContentBlockParam)[] = message.content;
    if (message.role === "assistant") {
      result.push(fromAssistantBlocks(blocks));
      return;
    }
    const toolResults = blocks.filter((block): block is ToolResultBlockParam => block.type === "tool_result");
    result.push(...toolResults.map(fromToolResult));
    const rest = blocks.filter((block) => block.type !== "tool_result");
    if (rest.length > 0 || toolResults.length === 0) result.push({ role: "user", content: rest.map((block) => fromBlock(block, index)) });
  });
  return result;
}

function fromSystem(system: string | readonly TextBlockParam[]): string | ContentPart[] {
  return typeof system === "string" ? system : system.map((block) => ({ type: "text", text: block.text }));
}

function fromAssistantBlocks(blocks: readonly (ContentBlock | ContentBlockParam)[]): Message {
  const content: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  blocks.forEach((block) => {
    if (block.type === "tool_use")
      toolCalls.push({ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
    else content.push(fromBlock(block));
  });
  if (toolCalls.length === 0) return { role: "assistant", content };
  return { role: "assistant", content: content.length > 0 ? content : null, tool_calls: toolCalls };
}

function fromToolResult(block: ToolResultBlockParam): ToolMessage {
  const content =
    block.content === undefined ? "" : typeof block.content === "string" ? block.content : block.content.map((part) => fromBlock(part));
  const message: ToolMessage & { is_error?: true } = {
    role: "tool",
    tool_call_id: block.tool_use_id,
    content,
    ...(block.is_error === true ? { is_error: true as const } : {}),
  };
  return message;
}

type AnyBlock = ContentBlock | ContentBlockParam | Exclude<ToolResultBlockParam["content"], string | undefined>[number];

function fromBlock(block: AnyBlock, index?: number): ContentPart {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      if (block.source.type === "base64")
        return { type: "image_url", image_url: { url: `data:${block.source.media_type};base64,${block.source.data}` } };
      if (block.source.type === "url") return { type: "image_url", image_url: { url: block.source.url } };
      return keepBlock(block);
    case "tool_use":
    case "tool_result":
      throw new ContextValidationError(
        [{ path: "content", message: `a ${block.type} block belongs in ${block.type === "tool_use" ? "an assistant" : "a user"} message` }],
        index === undefined ? {} : { index },
      );
    default:
      return keepBlock(block);
  }
}
