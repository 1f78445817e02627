// An adapter between ctxkit messages and a made-up provider whose messages are { role, text, images?, calls?, callId? }.
import type { ContentPart, Message } from "@ctxkit/core";
import { acceptMessage, partsOfContent, readAdapterInput, textOfContent, unsupportedPartError } from "@ctxkit/core/kit";

export interface PlainMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly text: string;
  readonly images?: readonly { readonly url: string }[];
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
  /** On a tool result: the call it answers. */
  readonly callId?: string;
}

/** A view as the provider's messages. Metadata and names stay behind: the provider has no place for them. */
export function toPlainMessages(messages: readonly Message[]): PlainMessage[] {
  return messages.map((message, index) => {
    const images = partsOfContent(message.content).flatMap((part, position) => {
      if (part.type === "text" || part.type === "refusal") return [];
      if (part.type === "image_url") return [{ url: (part as { image_url: { url: string } }).image_url.url }];
      // Dropping a part the provider cannot take would lose it without a word: refuse it, naming the part.
      throw unsupportedPartError({ provider: "Plain", index, position, partType: part.type, where: "a message (text and images only)" });
    });
    return {
      role: message.role === "developer" ? "system" : message.role,
      text: textOfContent(message.content),
      ...(images.length === 0 ? {} : { images }),
      ...(message.role === "assistant" && message.tool_calls !== undefined
        ? { calls: message.tool_calls.map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments })) }
        : {}),
      ...(message.role === "tool" ? { callId: message.tool_call_id } : {}),
    };
  });
}

const input = readAdapterInput(
  "fromPlainMessages",
  "Pass the messages as the provider returns them: { role, text, images?, calls?, callId? }",
);

/** The provider's messages as ctxkit messages; anything else throws AdapterInputError naming the entry and field. */
export function fromPlainMessages(payload: unknown): Message[] {
  return input.entries(payload).map((entry, index) => {
    const role = entry.oneOf("role", ["system", "user", "assistant", "tool"] as const);
    const text = entry.string("text");
    const images = (entry.optionalRecords("images") ?? []).map(
      (image): ContentPart => ({ type: "image_url", image_url: { url: image.string("url") } }),
    );
    const content = images.length === 0 ? text : [...(text === "" ? [] : [{ type: "text" as const, text }]), ...images];
    const calls = entry.optionalRecords("calls")?.map((call) => ({
      id: call.nonEmptyString("id"),
      type: "function" as const,
      function: { name: call.nonEmptyString("name"), arguments: call.string("arguments") },
    }));
    if (role === "tool") return acceptMessage(input, { role, tool_call_id: entry.nonEmptyString("callId"), content }, index);
    if (role === "assistant") return acceptMessage(input, { role, content, ...(calls === undefined ? {} : { tool_calls: calls }) }, index);
    return acceptMessage(input, { role, content }, index);
  });
}
