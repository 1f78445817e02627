// Chat Completions messages (request params, or a response's `choices[0].message`) as ctxkit messages.
import type { AssistantMessage, ContentPart, Message, ToolCall } from "@ctxkit/core";
import { acceptMessage, readAdapterInput, type InputList, type InputRecord } from "@ctxkit/core/kit";
import type { ChatCompletionMessage, ChatCompletionMessageParam } from "openai/resources/chat/completions";

const FIX = "Pass messages as the openai SDK types them (ChatCompletionMessageParam, or a response's message); nothing was converted.";

/**
 * A message as `addMessage` takes it. System, developer, user and tool params already are ctxkit messages
 * and come back as given. An assistant message is rebuilt: its `content` may be missing in a param and
 * its refusal sits beside the content in a response. Deprecated `function` messages, custom (non-function)
 * tool calls and malformed input throw `AdapterInputError` naming the message and the field.
 */
export function fromChatCompletionMessage(message: ChatCompletionMessageParam | ChatCompletionMessage, index?: number): Message {
  const input = readAdapterInput("fromChatCompletionMessage", FIX);
  return convert(input, input.entry(message, index ?? 0), index ?? 0);
}

export function fromChatCompletionMessages(messages: readonly (ChatCompletionMessageParam | ChatCompletionMessage)[]): Message[] {
  const input = readAdapterInput("fromChatCompletionMessages", FIX);
  return input.entries(messages, "messages").map((entry) => convert(input, entry, entry.index!));
}

function convert(input: InputList, entry: InputRecord, index: number): Message {
  const role = entry.oneOf("role", ["system", "developer", "user", "assistant", "tool", "function"]);
  if (role === "function") entry.fail('deprecated "function" messages are not supported: send tool calls and "tool" messages', "role");
  if (role === "assistant") return acceptMessage(input, fromAssistant(entry), index);
  if (typeof entry.value.content !== "string") entry.records("content").forEach((part) => part.string("type"));
  if (role === "tool") entry.nonEmptyString("tool_call_id");
  return acceptMessage(input, entry.value as unknown as Message, index);
}

function fromAssistant(entry: InputRecord): AssistantMessage {
  const functionCall = entry.optionalRecord("function_call");
  if (functionCall !== undefined) entry.fail("deprecated function_call is not supported: use tool_calls", "function_call");
  const toolCalls = (entry.optionalRecords("tool_calls") ?? []).map(toToolCall);
  const refusal = entry.optionalString("refusal");
  const body = entry.has("content") && entry.value.content !== null ? entry.stringOrRecords("content") : null;
  let content: string | ContentPart[] | null =
    body === null || typeof body === "string" ? body : body.map((part) => ({ ...part.value, type: part.string("type") }));
  // A refusal arrives beside a null content; as a refusal part it stays in the history and reaches the next request.
  if (refusal !== undefined)
    content = [
      ...(typeof content === "string" ? [{ type: "text" as const, text: content }] : (content ?? [])),
      { type: "refusal", refusal },
    ];
  if (content === null && toolCalls.length === 0) content = "";
  const audio = entry.optionalRecord("audio");
  const name = entry.optionalString("name");
  const result: AssistantMessage & { audio?: { id: string } } = {
    role: "assistant",
    content,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(name === undefined ? {} : { name }),
    ...(audio === undefined ? {} : { audio: { id: audio.string("id") } }),
  };
  return result;
}

function toToolCall(call: InputRecord): ToolCall {
  const type = call.string("type");
  if (type !== "function") call.fail(`a "${type}" tool call is not supported: ctxkit pairs function tool calls with their results`, "type");
  const called = call.record("function");
  return {
    id: call.nonEmptyString("id"),
    type: "function",
    function: { name: called.nonEmptyString("name"), arguments: called.string("arguments") },
  };
}
