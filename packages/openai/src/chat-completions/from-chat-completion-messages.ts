// Chat Completions messages (request params, or a response's `choices[0].message`) as ctxkit messages.
import { ContextValidationError, type AssistantMessage, type ContentPart, type Message, type ToolCall } from "@ctxkit/core";
import type { ChatCompletionMessage, ChatCompletionMessageParam, ChatCompletionMessageToolCall } from "openai/resources/chat/completions";

/**
 * A message as `addMessage` takes it. System, developer, user and tool params already are ctxkit messages
 * and come back as given. An assistant message is rebuilt: its `content` may be missing in a param and
 * its refusal sits beside the content in a response. Deprecated `function` messages and custom (non-function)
 * tool calls throw `ContextValidationError`: ctxkit pairs function tool calls with their results.
 */
export function fromChatCompletionMessage(message: ChatCompletionMessageParam | ChatCompletionMessage, index?: number): Message {
  const options = index === undefined ? {} : { index };
  switch (message.role) {
    case "system":
    case "developer":
    case "user":
    case "tool":
      return message;
    case "function":
      throw new ContextValidationError(
        [{ path: "role", message: 'deprecated "function" messages are not supported: send tool calls and "tool" messages' }],
        options,
      );
    case "assistant":
      return fromAssistant(message, options);
  }
}

export function fromChatCompletionMessages(messages: readonly (ChatCompletionMessageParam | ChatCompletionMessage)[]): Message[] {
  return messages.map((message, index) => fromChatCompletionMessage(message, index));
}

type AssistantInput = Extract<ChatCompletionMessageParam, { role: "assistant" }> | ChatCompletionMessage;

function fromAssistant(message: AssistantInput, options: { index?: number }): AssistantMessage {
  if (message.function_call !== undefined && message.function_call !== null) {
    throw new ContextValidationError(
      [{ path: "function_call", message: "deprecated function_call is not supported: use tool_calls" }],
      options,
    );
  }
  const toolCalls = (message.tool_calls ?? []).map((call, position) => toToolCall(call, position, options));
  const refusal = typeof message.refusal === "string" ? message.refusal : undefined;
  let content: string | ContentPart[] | null = message.content ?? null;
  // A refusal arrives beside a null content; as a refusal part it stays in the history and reaches the next request.
  if (refusal !== undefined)
    content = [
      ...(typeof content === "string" ? [{ type: "text" as const, text: content }] : (content ?? [])),
      { type: "refusal", refusal },
    ];
  if (content === null && toolCalls.length === 0) content = "";
  const audio = message.audio?.id === undefined ? {} : { audio: { id: message.audio.id } };
  const name = "name" in message && message.name !== undefined ? { name: message.name } : {};
  const result: AssistantMessage & { audio?: { id: string } } = {
    role: "assistant",
    content,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...name,
    ...audio,
  };
  return result;
}

function toToolCall(call: ChatCompletionMessageToolCall, position: number, options: { index?: number }): ToolCall {
  if (call.type !== "function") {
    throw new ContextValidationError(
      [
        {
          path: `tool_calls.${position}.type`,
          message: `a "${call.type}" tool call is not supported: ctxkit pairs function tool calls with their results`,
        },
      ],
      options,
    );
  }
  return { id: call.id, type: "function", function: { name: call.function.name, arguments: call.function.arguments } };
}
