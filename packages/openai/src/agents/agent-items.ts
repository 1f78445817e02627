// ctxkit messages to and from OpenAI Agents JS items.
import {
  ContextValidationError,
  toProviderMessages,
  type AssistantMessage,
  type ContentPart,
  type Message,
  type ToolCall,
} from "@ctxkit/core";
import { acceptMessage, isRecord, readAdapterInput, textOfContent, type InputRecord } from "@ctxkit/core/kit";
import { isFilePart, isImageUrlPart, isInputAudioPart, isRefusalPart, isTextPart } from "../content-parts.js";
import type { AgentAssistantContent, AgentInputItem, AgentReasoningItem, AgentToolOutput, AgentUserContent } from "./agent-input-item.js";

/** A reasoning item rides whole in its assistant message as this part, so it goes back to the agent as it came. */
const REASONING_PART = "openai_agents_reasoning";

const USER_CONTENT_TYPES: ReadonlySet<string> = new Set(["input_text", "input_image", "input_file", "audio"]);

/** The view as agent items: `metadata` left out, developer messages as system items (agents have no developer role). */
export function toAgentInputItems(view: readonly Message[]): AgentInputItem[] {
  const callNames = new Map<string, string>();
  return toProviderMessages(view).flatMap((message, index): AgentInputItem[] => {
    switch (message.role) {
      case "system":
      case "developer":
        return [{ role: "system", content: textOfContent(message.content) }];
      case "user":
        return [
          {
            role: "user",
            content:
              typeof message.content === "string"
                ? message.content
                : message.content.map((part, position) => toUserContent(part, index, position)),
          },
        ];
      case "assistant":
        for (const call of message.tool_calls ?? []) callNames.set(call.id, call.function.name);
        return fromAssistant(message);
      case "tool":
        return [
          {
            type: "function_call_result",
            callId: message.tool_call_id,
            name: message.name ?? callNames.get(message.tool_call_id) ?? "",
            status: "completed",
            output: toToolOutput(message.content, index),
          },
        ];
    }
  });
}

function fromAssistant(message: AssistantMessage): AgentInputItem[] {
  const items: AgentInputItem[] = [];
  let content: AgentAssistantContent[] = [];
  const flush = (): void => {
    if (content.length > 0) items.push({ role: "assistant", status: "completed", content });
    content = [];
  };
  const parts: readonly ContentPart[] =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content ?? []);
  for (const part of parts) {
    if (isTextPart(part)) content.push({ type: "output_text", text: part.text });
    else if (isRefusalPart(part)) content.push({ type: "refusal", refusal: part.refusal });
    else if (isReasoningPart(part)) {
      flush();
      items.push(part.item);
    }
  }
  flush();
  for (const call of message.tool_calls ?? []) {
    items.push({
      type: "function_call",
      callId: call.id,
      name: call.function.name,
      arguments: call.function.arguments,
      status: "completed",
    });
  }
  // An empty turn still takes its place in the conversation.
  return items.length > 0 ? items : [{ role: "assistant", status: "completed", content: [] }];
}

function toUserContent(part: ContentPart, index: number, position: number): AgentUserContent {
  if (isTextPart(part)) return { type: "input_text", text: part.text };
  if (isImageUrlPart(part))
    return {
      type: "input_image",
      image: part.image_url.url,
      ...(part.image_url.detail === undefined ? {} : { detail: part.image_url.detail }),
    };
  if (isFilePart(part)) {
    const file = part.file.file_data ?? (part.file.file_id === undefined ? undefined : { id: part.file.file_id });
    return {
      type: "input_file",
      ...(file === undefined ? {} : { file }),
      ...(part.file.filename === undefined ? {} : { filename: part.file.filename }),
    };
  }
  if (isInputAudioPart(part)) return { type: "audio", audio: part.input_audio.data, format: part.input_audio.format };
  if (isAgentUserContent(part)) return part;
  throw new ContextValidationError([{ path: `content.${position}`, message: `an agent user message takes no "${part.type}" part` }], {
    index,
  });
}

function toToolOutput(content: string | readonly ContentPart[], index: number): AgentToolOutput {
  if (typeof content === "string") return content;
  return content.map((part, position) => {
    const converted = toUserContent(part, index, position);
    if (converted.type === "audio")
      throw new ContextValidationError([{ path: `content.${position}`, message: "an agent tool result takes no audio part" }], { index });
    return converted;
  });
}

const FIX = "Pass items as the OpenAI Agents SDK stores them (AgentInputItem); nothing was converted.";

/** Agent items as messages for `addMessage`; an assistant turn (reasoning, message, calls) becomes one message. */
export function fromAgentInputItems(items: readonly AgentInputItem[]): Message[] {
  const input = readAdapterInput("fromAgentInputItems", FIX);
  const messages: Message[] = [];
  let turn: { content: ContentPart[]; toolCalls: ToolCall[]; index: number } | undefined;
  const flush = (): void => {
    if (turn !== undefined) {
      const { content, toolCalls } = turn;
      const body = content.length > 0 ? content : toolCalls.length > 0 ? null : "";
      const message: AssistantMessage =
        toolCalls.length > 0 ? { role: "assistant", content: body, tool_calls: toolCalls } : { role: "assistant", content: body ?? "" };
      messages.push(acceptMessage(input, message, turn.index));
    }
    turn = undefined;
  };
  const openTurn = (index: number): { content: ContentPart[]; toolCalls: ToolCall[]; index: number } => {
    if (turn !== undefined && turn.toolCalls.length > 0) flush();
    return (turn ??= { content: [], toolCalls: [], index });
  };
  for (const item of input.entries(items, "items")) {
    const index = item.index!;
    const type = item.optionalString("type") ?? "message";
    switch (type) {
      case "message": {
        const role = item.oneOf("role", ["user", "system", "assistant"]);
        if (role === "assistant") {
          openTurn(index).content.push(...item.records("content").map(fromAssistantContent));
          break;
        }
        flush();
        const content = item.stringOrRecords("content");
        const message: Message =
          role === "system"
            ? { role: "system", content: item.string("content") }
            : { role: "user", content: typeof content === "string" ? content : content.map(fromUserContent) };
        messages.push(acceptMessage(input, message, index));
        break;
      }
      case "reasoning":
        item.records("content");
        openTurn(index).content.push({ type: REASONING_PART, item: { ...item.value } });
        break;
      case "function_call":
        (turn ??= { content: [], toolCalls: [], index }).toolCalls.push({
          id: item.nonEmptyString("callId"),
          type: "function",
          function: { name: item.nonEmptyString("name"), arguments: item.string("arguments") },
        });
        break;
      case "function_call_result": {
        flush();
        const message: Message = {
          role: "tool",
          tool_call_id: item.nonEmptyString("callId"),
          name: item.string("name"),
          content: fromToolOutput(item),
        };
        messages.push(acceptMessage(input, message, index));
        break;
      }
      default:
        item.fail(`a "${type}" item has no ctxkit message form; only messages, reasoning, function calls and their results do`, "type");
    }
  }
  flush();
  return messages;
}

function fromAssistantContent(part: InputRecord): ContentPart {
  const type = part.string("type");
  if (type === "output_text") return { type: "text", text: part.string("text") };
  if (type === "refusal") return { type: "refusal", refusal: part.string("refusal") };
  return { ...part.value, type };
}

function fromUserContent(part: InputRecord): ContentPart {
  const type = part.string("type");
  if (type === "input_text") return { type: "text", text: part.string("text") };
  const image = part.value.image;
  if (type === "input_image" && typeof image === "string") {
    const detail = part.value.detail;
    return {
      type: "image_url",
      image_url: { url: image, ...(detail === "auto" || detail === "low" || detail === "high" ? { detail } : {}) },
    };
  }
  // Other forms (a file id image, files, audio) stay in the agent's shape: they come back to the agent as given.
  return { ...part.value, type };
}

function fromToolOutput(item: InputRecord): string | ContentPart[] {
  const output = item.value.output;
  if (typeof output === "string") return output;
  if (!Array.isArray(output)) return [{ type: "text", text: item.record("output").string("text") }];
  return item.records("output").map(fromUserContent);
}

function isReasoningPart(part: ContentPart): part is ContentPart & { item: AgentReasoningItem } {
  return part.type === REASONING_PART && isRecord(part.item) && part.item.type === "reasoning" && Array.isArray(part.item.content);
}

function isAgentUserContent(part: ContentPart): part is ContentPart & AgentUserContent {
  return USER_CONTENT_TYPES.has(part.type);
}
