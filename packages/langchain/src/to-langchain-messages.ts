// ctxkit messages (a view) as LangChain messages, ready for a chat model's `invoke` or an agent's model call.
import type { Message } from "@ctxkit/core";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { toLangchainContent } from "./langchain-content.js";
import { toLangchainToolCalls } from "./langchain-tool-calls.js";

/**
 * LangChain has no developer message: `ChatOpenAI` reads a system message with this role hint as one, and sends
 * it as `developer` where the model takes it.
 */
export const DEVELOPER_ROLE_HINT = { __openai_role__: "developer" } as const;

/**
 * One ctxkit message as LangChain's: system as `SystemMessage` (developer too, with the role hint ChatOpenAI
 * reads), user as `HumanMessage`, assistant as `AIMessage` with every call in `tool_calls`, tool as `ToolMessage`
 * with its `tool_call_id` and `status` ("error" for `is_error`). `metadata` stays behind, and so does a tool
 * message's `name`.
 */
export function toLangchainMessage(message: Message): BaseMessage {
  const name = message.name === undefined ? {} : { name: message.name };
  switch (message.role) {
    case "system":
      return new SystemMessage({ content: toLangchainContent(message.content), ...name });
    case "developer":
      return new SystemMessage({ content: toLangchainContent(message.content), additional_kwargs: { ...DEVELOPER_ROLE_HINT }, ...name });
    case "user":
      return new HumanMessage({ content: toLangchainContent(message.content), ...name });
    case "assistant": {
      if (message.tool_calls === undefined || message.tool_calls.length === 0)
        return new AIMessage({ content: toLangchainContent(message.content), ...name });
      const { toolCalls, raw } = toLangchainToolCalls(message.tool_calls);
      return new AIMessage({
        content: toLangchainContent(message.content),
        tool_calls: toolCalls,
        additional_kwargs: { tool_calls: raw },
        ...name,
      });
    }
    // No name: Chat Completions takes none on a tool message, and the call it answers already names the tool.
    case "tool":
      return new ToolMessage({
        content: toLangchainContent(message.content),
        tool_call_id: message.tool_call_id,
        ...(message.is_error === undefined ? {} : { status: message.is_error ? "error" : "success" }),
      });
  }
}

/** A view as LangChain messages, in order. */
export function toLangchainMessages(messages: readonly Message[]): BaseMessage[] {
  return messages.map(toLangchainMessage);
}
