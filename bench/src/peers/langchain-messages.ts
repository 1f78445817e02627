// ctxkit (OpenAI Chat Completions) messages to LangChain BaseMessages and back, without loss.
import type { ContentPart, Message, ToolCall } from "@ctxkit/core";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";

type LangChainContent = string | Record<string, unknown>[];

function toContent(content: Message["content"]): LangChainContent {
  if (content === null) return "";
  if (typeof content === "string") return content;
  // OpenAI's part shapes ({type:"text"}, {type:"image_url"}) are LangChain's too.
  return content.map((part) => ({ ...part }));
}

function toToolCalls(calls: readonly ToolCall[]) {
  const valid = [];
  const invalid = [];
  for (const call of calls) {
    try {
      const args: unknown = JSON.parse(call.function.arguments);
      if (typeof args !== "object" || args === null || Array.isArray(args)) throw new Error("arguments are not an object");
      valid.push({ id: call.id, name: call.function.name, args: args as Record<string, unknown>, type: "tool_call" as const });
    } catch (error) {
      invalid.push({
        id: call.id,
        name: call.function.name,
        args: call.function.arguments,
        error: String(error),
        type: "invalid_tool_call" as const,
      });
    }
  }
  return { tool_calls: valid, invalid_tool_calls: invalid };
}

/** The LangChain message for `message`; `id` ties it back to the original, since trimMessages copies every message it returns. */
export function toBaseMessage(message: Message, id: string): BaseMessage {
  const common = { id, ...(message.name === undefined ? {} : { name: message.name }) };
  switch (message.role) {
    case "system":
      return new SystemMessage({ ...common, content: toContent(message.content) as string });
    case "developer":
      return new SystemMessage({
        ...common,
        content: toContent(message.content) as string,
        additional_kwargs: { __openai_role__: "developer" },
      });
    case "user":
      return new HumanMessage({ ...common, content: toContent(message.content) as string });
    case "assistant":
      return new AIMessage({ ...common, content: toContent(message.content) as string, ...toToolCalls(message.tool_calls ?? []) });
    case "tool":
      return new ToolMessage({ ...common, content: toContent(message.content) as string, tool_call_id: message.tool_call_id });
  }
}

/** Rebuilds a message LangChain changed (only `allowPartial` does, which the benchmark never sets). */
function fromChanged(message: BaseMessage): Message {
  const content = typeof message.content === "string" ? message.content : (message.content as unknown as ContentPart[]);
  if (SystemMessage.isInstance(message)) return { role: "system", content };
  if (HumanMessage.isInstance(message)) return { role: "user", content };
  if (ToolMessage.isInstance(message)) return { role: "tool", content, tool_call_id: message.tool_call_id };
  if (AIMessage.isInstance(message)) {
    const calls: ToolCall[] = (message.tool_calls ?? []).map((call) => ({
      id: call.id ?? "",
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    return {
      role: "assistant",
      content: content === "" && calls.length > 0 ? null : content,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    };
  }
  throw new Error(`Unexpected LangChain message type ${message.getType()}`);
}

/** Remembers which original each converted message stands for, so a view maps back exactly. */
export class LangChainHistory {
  readonly messages: BaseMessage[] = [];
  private readonly originals = new Map<string, { message: Message; content: unknown }>();

  add(message: Message): void {
    const id = `ctxkit-${this.messages.length}`;
    const converted = toBaseMessage(message, id);
    this.messages.push(converted);
    this.originals.set(id, { message, content: converted.content });
  }

  /** Entries of returned views that were not messages at all (see `decode`). */
  holes = 0;

  /**
   * trimMessages with includeSystem returns `[undefined]` when the window it keeps holds no human
   * message (startOn drops everything, then it puts back "the system message" of an empty list):
   * such holes are left out, and counted.
   */
  decode(view: readonly (BaseMessage | undefined)[]): Message[] {
    const messages = view.filter((message): message is BaseMessage => message !== undefined);
    this.holes += view.length - messages.length;
    return messages.map((message) => {
      const original = message.id === undefined ? undefined : this.originals.get(message.id);
      return original !== undefined && original.content === message.content ? original.message : fromChanged(message);
    });
  }
}
