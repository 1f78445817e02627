// LangChain messages (instances, their JSON, or plain message objects) as ctxkit messages.
import type { AssistantMessage, Message } from "@ctxkit/core";
import { acceptMessage, readAdapterInput, type InputList, type InputRecord } from "@ctxkit/core/kit";
import { fromLangchainContent } from "./langchain-content.js";
import { fromLangchainToolCalls } from "./langchain-tool-calls.js";

const FIX =
  "Pass LangChain messages (SystemMessage, HumanMessage, AIMessage, ToolMessage), their JSON, or { type, content } objects; nothing was converted.";

/** LangChain's message types, by the `type` an instance or a plain message carries, or its class in JSON. */
const KINDS: Readonly<Record<string, "system" | "user" | "assistant" | "tool">> = {
  system: "system",
  human: "user",
  user: "user",
  ai: "assistant",
  assistant: "assistant",
  tool: "tool",
  SystemMessage: "system",
  SystemMessageChunk: "system",
  HumanMessage: "user",
  HumanMessageChunk: "user",
  AIMessage: "assistant",
  AIMessageChunk: "assistant",
  ToolMessage: "tool",
  ToolMessageChunk: "tool",
};

/**
 * The message's fields and its kind. A serialized message (`JSON.stringify` of an instance) is
 * `{ lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs }`; an instance or a plain object carries `type`
 * (or a plain object `role`) beside its fields.
 */
function readMessage(entry: InputRecord): { fields: InputRecord; kind: string } {
  if (entry.value["lc"] === 1 && entry.value["type"] === "constructor") {
    const id = entry.value["id"];
    const name = Array.isArray(id) ? id[id.length - 1] : undefined;
    if (typeof name !== "string") entry.fail("expected the message's class name as the last item of a serialized message's id", "id");
    return { fields: entry.record("kwargs"), kind: name };
  }
  return { fields: entry, kind: entry.has("type") ? entry.string("type") : entry.string("role") };
}

function kindOf(fields: InputRecord, kind: string, entry: InputRecord): Message["role"] {
  // A generic ChatMessage names its role: one ctxkit knows is read as that role.
  if (kind === "generic" || kind === "ChatMessage" || kind === "ChatMessageChunk") {
    const role = fields.string("role");
    if (role === "developer") return role;
    const known = role === "user" || role === "assistant" || role === "system" || role === "tool";
    return kindOf(fields, known ? role : `${role} role`, entry);
  }
  if (!Object.hasOwn(KINDS, kind))
    entry.fail(
      `a "${kind}" message is not supported: ctxkit takes system, human, ai and tool messages (tool calls in an AI message's tool_calls)`,
      "type",
    );
  const role = KINDS[kind]!;
  if (role !== "system") return role;
  const hint = fields.optionalRecord("additional_kwargs")?.value["__openai_role__"];
  return hint === "developer" || fields.value["role"] === "developer" ? "developer" : "system";
}

function convert(input: InputList, entry: InputRecord, index: number): Message {
  const { fields, kind } = readMessage(entry);
  const role = kindOf(fields, kind, entry);
  const name = fields.optionalString("name");
  const named = name === undefined ? {} : { name };
  if (role === "assistant") {
    const toolCalls = fromLangchainToolCalls(fields);
    const content = fields.value["content"] === undefined || fields.value["content"] === null ? "" : fromLangchainContent(fields);
    const blank = content === "" || (Array.isArray(content) && content.length === 0);
    const message: AssistantMessage = {
      role,
      // An AI message that only calls tools has empty content in LangChain, `null` in ctxkit.
      content: blank && toolCalls.length > 0 ? null : content,
      ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      ...named,
    };
    return acceptMessage(input, message, index);
  }
  const content = fromLangchainContent(fields);
  if (role === "tool") {
    const status = fields.optionalString("status");
    if (status !== undefined && status !== "success" && status !== "error")
      fields.fail(`expected "success" or "error", got ${JSON.stringify(status)}`, "status");
    return acceptMessage(
      input,
      {
        role,
        content,
        tool_call_id: fields.nonEmptyString("tool_call_id"),
        ...(status === undefined ? {} : { is_error: status === "error" }),
        ...named,
      },
      index,
    );
  }
  return acceptMessage(input, { role, content, ...named }, index);
}

/**
 * LangChain messages as ctxkit messages: `SystemMessage` as system (developer with ChatOpenAI's role hint),
 * `HumanMessage` as user, `AIMessage` as assistant (its `tool_calls` and `invalid_tool_calls` as `tool_calls`,
 * arguments exact), `ToolMessage` as tool (`status: "error"` as `is_error`). Ids, `response_metadata`,
 * `usage_metadata` and artifacts are not conversation and stay behind. Anything malformed throws
 * `AdapterInputError` naming the message and the field.
 */
export function fromLangchainMessages(messages: unknown): Message[] {
  const input = readAdapterInput("fromLangchainMessages", FIX);
  return input.entries(messages, "messages").map((entry) => convert(input, entry, entry.index!));
}

/** One LangChain message (a model's answer, say) as a ctxkit message. */
export function fromLangchainMessage(message: unknown): Message {
  const input = readAdapterInput("fromLangchainMessage", FIX);
  return convert(input, input.entry(message, 0), 0);
}
