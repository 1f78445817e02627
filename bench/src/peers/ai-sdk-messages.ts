// ctxkit (OpenAI Chat Completions) messages to AI SDK ModelMessages and back, without loss.
import type { ContentPart, Message, ToolCall, ToolMessage } from "@ctxkit/core";
import type { ModelMessage } from "ai";

type UserParts = Exclude<Extract<ModelMessage, { role: "user" }>["content"], string>;
type AssistantParts = Exclude<Extract<ModelMessage, { role: "assistant" }>["content"], string>;

function textOf(content: string | ContentPart[]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : JSON.stringify(part))).join("\n");
}

function userParts(content: ContentPart[]): UserParts {
  return content.map((part) => {
    if (part.type === "image_url") return { type: "image" as const, image: (part as { image_url: { url: string } }).image_url.url };
    return { type: "text" as const, text: part.type === "text" && typeof part.text === "string" ? part.text : JSON.stringify(part) };
  });
}

function parseInput(call: ToolCall): unknown {
  try {
    return JSON.parse(call.function.arguments);
  } catch {
    return call.function.arguments;
  }
}

/**
 * Keeps the AI SDK form of a history and maps any view of it back: an unchanged message is the very
 * object converted, and the parts that pruneMessages keeps are the very part objects, so both lead back
 * to the originals (arguments strings byte for byte, not re-serialized).
 */
export class AiSdkHistory {
  readonly messages: ModelMessage[] = [];
  private readonly originals = new WeakMap<object, Message>();
  private readonly callOfPart = new WeakMap<object, ToolCall>();
  /** Tool names of the calls of the latest assistant message: a result takes its name by adjacency. */
  private openCalls = new Map<string, string>();

  add(message: Message): void {
    const converted = this.convert(message);
    this.originals.set(converted, message);
    this.messages.push(converted);
  }

  private convert(message: Message): ModelMessage {
    switch (message.role) {
      case "system":
      case "developer":
        this.openCalls = new Map();
        return { role: "system", content: textOf(message.content) };
      case "user":
        this.openCalls = new Map();
        return { role: "user", content: typeof message.content === "string" ? message.content : userParts(message.content) };
      case "assistant":
        return this.convertAssistant(message);
      case "tool":
        return this.convertTool(message);
    }
  }

  private convertAssistant(message: Extract<Message, { role: "assistant" }>): ModelMessage {
    this.openCalls = new Map();
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) return { role: "assistant", content: message.content === null ? "" : textOf(message.content) };
    const parts: AssistantParts = [];
    if (message.content !== null) parts.push({ type: "text", text: textOf(message.content) });
    for (const call of calls) {
      const part = { type: "tool-call" as const, toolCallId: call.id, toolName: call.function.name, input: parseInput(call) };
      this.callOfPart.set(part, call);
      this.openCalls.set(call.id, call.function.name);
      parts.push(part);
    }
    return { role: "assistant", content: parts };
  }

  private convertTool(message: ToolMessage): ModelMessage {
    const part = {
      type: "tool-result" as const,
      toolCallId: message.tool_call_id,
      toolName: this.openCalls.get(message.tool_call_id) ?? "unknown",
      output: { type: "text" as const, value: textOf(message.content) },
    };
    this.originals.set(part, message);
    return { role: "tool", content: [part] };
  }

  decode(view: readonly ModelMessage[]): Message[] {
    return view.flatMap((message) => {
      const original = this.originals.get(message);
      if (original !== undefined) return [original];
      if (message.role === "tool") return message.content.flatMap((part) => this.originals.get(part) ?? []);
      if (message.role === "assistant" && typeof message.content !== "string") return [this.rebuildAssistant(message.content)];
      throw new Error(`pruneMessages returned a ${message.role} message the adapter did not make`);
    });
  }

  /** An assistant message pruneMessages rewrote: its kept text and the original calls it kept. */
  private rebuildAssistant(parts: AssistantParts): Message {
    const texts: string[] = [];
    const calls: ToolCall[] = [];
    for (const part of parts) {
      if (part.type === "text") texts.push(part.text);
      const call = this.callOfPart.get(part);
      if (call !== undefined) calls.push(call);
    }
    const content = texts.length === 0 ? null : texts.join("");
    if (calls.length === 0) return { role: "assistant", content: content ?? "" };
    return { role: "assistant", content, tool_calls: calls };
  }
}
