// Fixed cases every adapter run starts with, so a flaw shows on the first run, before any generated history.
import type { Message } from "@ctxkit/core";

/** A history with everything the checks look at: metadata, an image, parallel calls, an id Anthropic refuses. */
export const RICH_HISTORY: readonly Message[] = [
  { role: "system", content: "Be brief.", metadata: { pinned: true } },
  {
    role: "user",
    content: [
      { type: "text", text: "What is in a.txt? See the screenshot." },
      { type: "image_url", image_url: { url: "https://example.com/screenshot.png" } },
    ],
    metadata: { traceId: "trace-1" },
  },
  {
    role: "assistant",
    content: "Reading it.",
    tool_calls: [
      { id: "functions.read_file:0", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } },
      { id: "call_2", type: "function", function: { name: "grep", arguments: '{"pattern":"x"}' } },
    ],
  },
  { role: "tool", tool_call_id: "functions.read_file:0", content: "hello" },
  { role: "tool", tool_call_id: "call_2", content: "no match" },
  { role: "assistant", content: "a.txt says hello." },
  { role: "user", content: "Thanks." },
];

/** Tool errors as providers send them: one as a string, one as text parts (Anthropic's results arrive so). */
export const TOOL_ERROR_HISTORY: readonly Message[] = [
  { role: "user", content: "Read a.txt and b.txt." },
  {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_a", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } },
      { id: "call_b", type: "function", function: { name: "read_file", arguments: '{"path":"b.txt"}' } },
    ],
  },
  { role: "tool", tool_call_id: "call_a", content: "ENOENT: no such file a.txt", is_error: true },
  { role: "tool", tool_call_id: "call_b", content: [{ type: "text", text: "EACCES: permission denied b.txt" }], is_error: true },
  { role: "assistant", content: "Neither file could be read." },
  { role: "user", content: "Thanks." },
];

/** Inputs a `from…` function must refuse with `AdapterInputError` (or convert into valid messages). */
export const MALFORMED_INPUTS: readonly unknown[] = [
  null,
  "hello",
  [null],
  [[null]],
  [{ role: "user" }],
  { messages: [null] },
  { messages: [{ role: "user" }] },
];
