// Adapters with one flaw each, for proving the adapter suite catches it. The healthy one sends ctxkit's own
// shape with Anthropic-safe ids, the way a small real adapter would.
import { toProviderMessages, type Message } from "@ctxkit/core";
import { acceptMessage, decodeToolCallId, encodeToolCallId, isSafeToolCallId, readAdapterInput } from "@ctxkit/core/kit";
import { checkChatCompletionRequest } from "../../src/adapter/rules/check-chat-completion-request.js";
import type { AdapterSubject } from "../../src/adapter/adapter-subject.js";

function mapIds(messages: readonly Message[], map: (id: string) => string): Message[] {
  return messages.map((message) => {
    if (message.role === "tool") return { ...message, tool_call_id: map(message.tool_call_id) };
    if (message.role !== "assistant" || message.tool_calls === undefined) return message;
    return { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, id: map(call.id) })) };
  });
}

function validate(payload: Message[]): string[] {
  const ids = payload.flatMap((message) =>
    message.role === "tool"
      ? [message.tool_call_id]
      : message.role === "assistant"
        ? (message.tool_calls ?? []).map((call) => call.id)
        : [],
  );
  return [...checkChatCompletionRequest(payload), ...ids.filter((id) => !isSafeToolCallId(id)).map((id) => `id "${id}" is not safe`)];
}

export const healthyAdapter: AdapterSubject<Message[]> = {
  name: "healthy",
  toProvider: (messages) => mapIds(toProviderMessages(messages), encodeToolCallId),
  fromProvider(payload) {
    const input = readAdapterInput("fromHealthy", "Pass what toProvider returned.");
    const messages = input
      .entries(payload, "payload")
      .map((entry) => acceptMessage(input, entry.value as unknown as Message, entry.index!));
    return mapIds(messages, decodeToolCallId);
  },
  validate,
};

const flawed = (name: string, changes: Partial<AdapterSubject<Message[]>>): AdapterSubject<Message[]> => ({
  ...healthyAdapter,
  name,
  ...changes,
});

export const dropsToolResult = flawed("drops a tool result", {
  toProvider(messages) {
    const sent = healthyAdapter.toProvider(messages);
    const last = sent.findLastIndex((message) => message.role === "tool");
    return last < 0 ? sent : sent.filter((_message, index) => index !== last);
  },
});

export const reorders = flawed("reorders", {
  toProvider: (messages) => healthyAdapter.toProvider(messages).reverse(),
});

export const leaksMetadata = flawed("leaks metadata", {
  toProvider: (messages) => mapIds(messages, encodeToolCallId),
});

export const throwsTypeErrorOnNull = flawed("throws a TypeError on null", {
  fromProvider: (payload) => payload.flatMap((message) => mapIds([message], decodeToolCallId)),
});

export const emitsInvalidId = flawed("emits an invalid id", {
  toProvider: (messages) => toProviderMessages(messages),
});

export const losesContentPart = flawed("loses a content part", {
  toProvider: (messages) =>
    healthyAdapter
      .toProvider(messages)
      .map((message) =>
        Array.isArray(message.content) ? { ...message, content: message.content.filter((part) => part.type !== "image_url") } : message,
      ),
});
