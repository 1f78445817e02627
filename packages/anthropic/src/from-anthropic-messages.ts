// Anthropic Messages (request params, or a response `Message`) as ctxkit messages.
import type { ContentPart, Message, ToolCall, ToolMessage } from "@ctxkit/core";
import {
  acceptMessage,
  argumentsFromToolInput,
  decodeToolCallId,
  readAdapterInput,
  withProvenance,
  type InputRecord,
  type Provenance,
} from "@ctxkit/core/kit";
import type { Message as AnthropicResponse, MessageParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { keepBlock } from "./anthropic-blocks.js";

export interface FromAnthropicOptions {
  /** The request's `system`, put first as a system message. */
  system?: string | TextBlockParam[];
  /**
   * Who produced the assistant messages (`anthropicProvenance(response.model)` for a response), recorded as their
   * `metadata.provenance` so a later request to another model leaves their thinking out.
   */
  provenance?: Provenance;
}

const FIX = "Pass the messages as the Anthropic SDK types them (MessageParam, or a response Message); nothing was converted.";

/**
 * The messages as ctxkit messages for `addMessage`: a user message's `tool_result` blocks become tool
 * messages (before the rest of its content, as Anthropic orders them), an assistant's `tool_use` blocks
 * become `tool_calls` with JSON arguments, base64 and url images become `image_url` parts, and blocks with no
 * ctxkit form (thinking, documents, server tools) are kept as parts. `cache_control` is dropped: breakpoints
 * are placed per request by `toAnthropicMessages`. Ids that `toAnthropicMessages` encoded are decoded.
 * Malformed input throws `AdapterInputError` naming the entry and the field, and nothing is returned.
 */
export function fromAnthropicMessages(
  messages: readonly (MessageParam | AnthropicResponse)[],
  options: FromAnthropicOptions = {},
): Message[] {
  const input = readAdapterInput("fromAnthropicMessages", FIX);
  const result: Message[] = [];
  const system = input.arguments({ system: options.system });
  if (system.has("system")) result.push({ role: "system", content: fromSystem(system) });
  input.entries(messages, "messages").forEach((entry) => {
    const role = entry.oneOf("role", ["user", "assistant"]);
    const index = entry.index!;
    const content = entry.stringOrRecords("content");
    const converted: Message[] =
      typeof content === "string" ? [{ role, content }] : role === "assistant" ? [fromAssistantBlocks(content)] : fromUserBlocks(content);
    const recorded = options.provenance === undefined ? converted : withProvenance(converted, options.provenance);
    result.push(...recorded.map((message) => acceptMessage(input, message, index)));
  });
  return result;
}

function fromSystem(system: InputRecord): string | ContentPart[] {
  const value = system.stringOrRecords("system");
  return typeof value === "string" ? value : value.map((block) => ({ type: "text", text: block.string("text") }));
}

function fromUserBlocks(blocks: readonly InputRecord[]): Message[] {
  const toolResults = blocks.filter((block) => block.value.type === "tool_result").map(fromToolResult);
  const rest = blocks.filter((block) => block.value.type !== "tool_result").map(fromBlock);
  return rest.length > 0 || toolResults.length === 0 ? [...toolResults, { role: "user", content: rest }] : toolResults;
}

function fromAssistantBlocks(blocks: readonly InputRecord[]): Message {
  const content: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of blocks) {
    if (block.value.type === "tool_use") {
      const id = decodeToolCallId(block.nonEmptyString("id"));
      toolCalls.push({
        id,
        type: "function",
        function: { name: block.nonEmptyString("name"), arguments: argumentsFromToolInput(block.value.input) },
      });
    } else content.push(fromBlock(block));
  }
  if (toolCalls.length === 0) return { role: "assistant", content };
  return { role: "assistant", content: content.length > 0 ? content : null, tool_calls: toolCalls };
}

function fromToolResult(block: InputRecord): ToolMessage {
  const id = decodeToolCallId(block.nonEmptyString("tool_use_id"));
  const value = block.has("content") ? block.stringOrRecords("content") : "";
  const content = typeof value === "string" ? value : value.map(fromBlock);
  return { role: "tool", tool_call_id: id, content, ...(block.optionalBoolean("is_error") === true ? { is_error: true } : {}) };
}

function fromBlock(block: InputRecord): ContentPart {
  const type = block.string("type");
  switch (type) {
    case "text":
      return { type: "text", text: block.string("text") };
    case "image": {
      const source = block.record("source");
      const sourceType = source.string("type");
      if (sourceType === "base64")
        return { type: "image_url", image_url: { url: `data:${source.string("media_type")};base64,${source.string("data")}` } };
      if (sourceType === "url") return { type: "image_url", image_url: { url: source.string("url") } };
      return keepBlock({ ...block.value, type });
    }
    case "tool_use":
    case "tool_result":
      return block.fail(`a ${type} block belongs in ${type === "tool_use" ? "an assistant" : "a user"} message`, "type");
    default:
      return keepBlock({ ...block.value, type });
  }
}
