// A short session whose one tool result is pathological for BPE: a long unbroken run, or CJK without punctuation.
import type { Message } from "@ctxkit/core";

export const PATHOLOGICAL_INPUTS = {
  run: { label: "50,000 × 'a' in a tool result", text: () => "a".repeat(50_000) },
  cjk: {
    label: "20,000 Chinese characters, no punctuation, in a tool result",
    text: () => Array.from({ length: 20_000 }, (_, index) => String.fromCodePoint(0x4e00 + ((index * 7_919) % 20_000))).join(""),
  },
} as const;

export type PathologicalInput = keyof typeof PATHOLOGICAL_INPUTS;

/** System, a task, one tool call whose result is `text`, the answer, and a follow-up question. */
export function pathologicalSession(text: string): Message[] {
  return [
    { role: "system", content: "You are a coding agent. Read files and logs, then answer briefly." },
    { role: "user", content: "The nightly job wrote a log; read logs/nightly.log and tell me what failed." },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_log", type: "function", function: { name: "read_file", arguments: '{"path":"logs/nightly.log"}' } }],
    },
    { role: "tool", tool_call_id: "call_log", content: text },
    { role: "assistant", content: "The log is one long line with no error marker in it." },
    { role: "user", content: "Then look at the exit code in logs/nightly.status instead." },
  ];
}
