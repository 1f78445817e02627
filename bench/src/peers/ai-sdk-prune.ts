// Vercel AI SDK: the cookbook's compaction (pruneMessages over an estimated threshold), then keep the last N messages that fit.
import type { Message } from "@ctxkit/core";
import { type ModelMessage, pruneMessages } from "ai";
import { AiSdkHistory } from "./ai-sdk-messages.js";
import type { ContextSession, ContextSystem, Meter } from "./context-system.js";

/** The cookbook's estimate, `JSON.stringify(messages).length / 4`, one message at a time. */
function estimateTokens(messages: readonly ModelMessage[], meter: Meter): number {
  meter.messagesMeasured += messages.length;
  return JSON.stringify(messages).length / 4;
}

/**
 * Keeps the leading system messages (the AI SDK sends instructions apart) and the longest suffix whose
 * estimate fits: "keep the last N messages", with N as large as the budget allows.
 */
function keepLastMessages(messages: readonly ModelMessage[], budget: number, meter: Meter): ModelMessage[] {
  let head = 0;
  while (head < messages.length && messages[head]!.role === "system") head += 1;
  // JSON.stringify(array) is "[" + items joined by "," + "]".
  let characters = 2 + Math.max(0, head - 1);
  for (let index = 0; index < head; index += 1) characters += JSON.stringify(messages[index]).length;
  let start = messages.length;
  while (start > head) {
    const size = JSON.stringify(messages[start - 1]).length + 1;
    meter.messagesMeasured += 1;
    if ((characters + size) / 4 > budget) break;
    characters += size;
    start -= 1;
  }
  return [...messages.slice(0, head), ...messages.slice(start)];
}

export function createPruneSession(meter: Meter): ContextSession {
  const history = new AiSdkHistory();
  return {
    isAddTimed: false,
    add: (message: Message) => history.add(message),
    load(messages: readonly Message[]) {
      for (const message of messages) history.add(message);
    },
    async request(budget: number) {
      const messages = history.messages;
      if (estimateTokens(messages, meter) <= budget) return messages;
      const pruned = pruneMessages({ messages, reasoning: "all", toolCalls: "before-last-3-messages", emptyMessages: "remove" });
      if (estimateTokens(pruned, meter) <= budget) return pruned;
      return keepLastMessages(pruned, budget, meter);
    },
    decode: (view: unknown) => history.decode(view as ModelMessage[]),
    lastRequestCompacted: () => undefined,
    holes: () => 0,
  };
}

export const aiSdkSystem: ContextSystem = {
  name: "ai-sdk",
  createSession: (meter) => createPruneSession(meter),
};
