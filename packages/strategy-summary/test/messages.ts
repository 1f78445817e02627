// Small builders for test messages.
import type { AssistantMessage, Message, ToolMessage } from "@ctxkit/core";

export const system = (content: string): Message => ({ role: "system", content });
export const user = (content: string): Message => ({ role: "user", content });
export const assistant = (content: string): Message => ({ role: "assistant", content });
export const pinned = (message: Message): Message => ({ ...message, metadata: { ...message.metadata, pinned: true } });

/** An assistant message calling `name` once per id, with `{ path: "<id>.txt" }` or the given arguments. */
export function call(name: string, ids: string[], input?: Record<string, unknown>): AssistantMessage {
  return {
    role: "assistant",
    content: null,
    tool_calls: ids.map((id) => ({ id, type: "function", function: { name, arguments: JSON.stringify(input ?? { path: `${id}.txt` }) } })),
  };
}

export const result = (id: string, content: string): ToolMessage => ({ role: "tool", tool_call_id: id, content });

/** One tool unit: a `read_file` call and its output of `outputChars` characters. */
export function toolUnit(id: string, outputChars = 400): Message[] {
  return [call("read_file", [id]), result(id, `output of ${id} `.padEnd(outputChars, "x"))];
}

/** A user request, `units` tool units, and an answer. */
export function turn(index: number, units = 1, outputChars = 400): Message[] {
  const tools = Array.from({ length: units }, (_, unit) => toolUnit(`t${index}_${unit}`, outputChars)).flat();
  return [user(`request ${index}`), ...tools, assistant(`answer ${index}`)];
}
