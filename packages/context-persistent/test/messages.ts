// Small builders for test messages.
import type { AssistantMessage, Message, ToolMessage } from "@ctxkit/core";

export const system = (content: string): Message => ({ role: "system", content });
export const user = (content: string): Message => ({ role: "user", content });
export const assistant = (content: string): Message => ({ role: "assistant", content });

export function callTools(...ids: string[]): AssistantMessage {
  return {
    role: "assistant",
    content: null,
    tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `${id}.txt` }) } })),
  };
}

export const result = (id: string, content: string): ToolMessage => ({ role: "tool", tool_call_id: id, content });

/** A user turn, one tool call with an output of `outputChars` characters, and an answer. */
export function turn(index: number, outputChars = 2_000): Message[] {
  const id = `call_${index}`;
  return [user(`question ${index}`), callTools(id), result(id, `output ${index} `.padEnd(outputChars, "x")), assistant(`answer ${index}`)];
}
