// The first manager everyone writes: the instructions plus the last few messages, whatever the budget.
// Its real bug is that the cut can fall inside a tool unit; its trivial one, that it ignores the budget.
import { parseMessage, type ContextManager, type Coordinator, type Message } from "@ctxkit/core";
import { isInstruction } from "@ctxkit/core/kit";
import { z } from "zod";

/** How many of the latest non-instruction messages each view keeps. */
const KEEP_LAST = 4;

export function createNaiveKeepLastManager(): ContextManager {
  let history: Message[] = [];
  const validate = (message: Message): Message => parseMessage(message);
  return {
    async addMessage(message) {
      history = [...history, structuredClone(validate(message))];
    },
    async getMessagesForRequest(options) {
      if (options?.signal?.aborted === true) throw options.signal.reason ?? new Error("aborted");
      const instructions = history.filter(isInstruction);
      const rest = history.filter((message) => !isInstruction(message));
      return structuredClone([...instructions, ...rest.slice(-KEEP_LAST)]);
    },
    async getMessages() {
      return structuredClone(history);
    },
    async setMessages(messages) {
      const checked = messages.map(validate);
      history = structuredClone(checked);
    },
    async clear() {
      history = [];
    },
  };
}

export const naiveKeepLast = {
  meta: { type: "context" as const, name: "naive-keep-last" },
  configSchema: z.strictObject({}),
  async mount(coordinator: Coordinator) {
    await coordinator.mount("context", createNaiveKeepLastManager());
    return () => void coordinator.unmount("context");
  },
};
