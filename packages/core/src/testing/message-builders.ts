// Terse builders for the messages tests need most, so suites read as conversations.
import type { AssistantMessage, Message, ToolMessage } from "../messages/message.js";

export const systemMessage = (content: string): Message => ({ role: "system", content });
export const userMessage = (content: string): Message => ({ role: "user", content });
export const assistantMessage = (content: string): Message => ({ role: "assistant", content });

/** An assistant message that only calls tools: one `read_file` call per id, in parallel. */
export function toolCallMessage(...ids: string[]): AssistantMessage {
  return {
    role: "assistant",
    content: null,
    tool_calls: ids.map((id) => ({
      id,
      type: "function",
      function: { name: "read_file", arguments: JSON.stringify({ path: `${id}.txt` }) },
    })),
  };
}

export const toolResultMessage = (toolCallId: string, content: string): ToolMessage => ({
  role: "tool",
  tool_call_id: toolCallId,
  content,
});

/** A user question, one tool call whose output has `outputChars` characters, and an answer. */
export function sampleTurn(index: number, outputChars = 2_000): Message[] {
  const id = `call_${index}`;
  return [
    userMessage(`question ${index}`),
    toolCallMessage(id),
    toolResultMessage(id, `output ${index} `.padEnd(outputChars, "x")),
    assistantMessage(`answer ${index}`),
  ];
}
