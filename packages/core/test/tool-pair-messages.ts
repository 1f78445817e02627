// Messages for the tool-pair tests: calls, their results, and the messages around them.
import type { AssistantMessage, Message, ToolMessage } from "../src/messages/message.js";

export function calling(...ids: string[]): AssistantMessage {
  return {
    role: "assistant",
    content: null,
    tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "bash", arguments: "{}" } })),
  };
}

export function result(toolCallId: string): ToolMessage {
  return { role: "tool", tool_call_id: toolCallId, content: `output of ${toolCallId}` };
}

export const user: Message = { role: "user", content: "next question" };
export const answer: Message = { role: "assistant", content: "done" };
