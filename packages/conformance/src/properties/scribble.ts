// What a careless caller does to values it holds: mutate them, reorder them, freeze them.
import type { Message } from "@ctxkit/core";

/** Tries to corrupt one message in place; frozen messages throw in strict mode, which is fine. */
export function scribbleOnMessage(message: unknown): void {
  if (typeof message !== "object" || message === null) return;
  const record = message as Record<string, unknown>;
  try {
    record["content"] = "scribbled by the caller";
  } catch {}
  try {
    if (Array.isArray(record["tool_calls"]))
      (record["tool_calls"] as unknown[]).push({ id: "scribbled", type: "function", function: { name: "x", arguments: "{}" } });
  } catch {}
  try {
    record["metadata"] = { pinned: true, scribbled: true };
  } catch {}
}

/** Mutates a returned array (and tries to mutate its messages), then freezes it. */
export function scribbleOnArray(messages: Message[]): void {
  for (const message of messages) scribbleOnMessage(message);
  try {
    messages.reverse();
    messages.push({ role: "user", content: "pushed by the caller" });
  } catch {}
  Object.freeze(messages);
}
