// Values a manager must reject: each breaks one rule of the message schema, and all are plain data.
import fc from "fast-check";

const call = (id: string) => ({ id, type: "function", function: { name: "bash", arguments: "{}" } });

/** Each entry breaks exactly one rule, named by its key, so a counterexample says what was wrong. */
export const INVALID_MESSAGES: Readonly<Record<string, unknown>> = {
  "not an object": "hello",
  null: null,
  "an array": [{ role: "user", content: "hi" }],
  "no role": { content: "hi" },
  "an unknown role": { role: "robot", content: "hi" },
  "no content": { role: "user" },
  "numeric content": { role: "user", content: 42 },
  "a text part without text": { role: "user", content: [{ type: "text" }] },
  "an image part without a url": { role: "user", content: [{ type: "image_url", image_url: {} }] },
  "a part without a type": { role: "user", content: [{ text: "hi" }] },
  "null content without tool calls": { role: "assistant", content: null },
  "an empty tool_calls list": { role: "assistant", content: "hi", tool_calls: [] },
  "a tool call without an id": { role: "assistant", content: null, tool_calls: [call("")] },
  "a tool call of another type": { role: "assistant", content: null, tool_calls: [{ ...call("call_1"), type: "web" }] },
  "a tool call without a function name": {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "", arguments: "{}" } }],
  },
  "non-string tool call arguments": {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "bash", arguments: { command: "ls" } } }],
  },
  "a call id repeated in one message": { role: "assistant", content: null, tool_calls: [call("call_1"), call("call_1")] },
  "a tool message without tool_call_id": { role: "tool", content: "ok" },
  "an empty tool_call_id": { role: "tool", content: "ok", tool_call_id: "" },
  "a non-boolean pinned": { role: "user", content: "hi", metadata: { pinned: "yes" } },
  "a non-string name": { role: "user", content: "hi", name: 7 },
};

export interface InvalidMessage {
  /** Which rule the value breaks. */
  readonly reason: string;
  readonly value: unknown;
}

/** An invalid message, with the reason it is invalid. */
export function invalidMessageArbitrary(): fc.Arbitrary<InvalidMessage> {
  return fc.constantFrom(...Object.keys(INVALID_MESSAGES)).map((reason) => ({ reason, value: structuredClone(INVALID_MESSAGES[reason]) }));
}
