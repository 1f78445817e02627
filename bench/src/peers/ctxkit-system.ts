// ctxkit's context-simple with its defaults, the exact o200k counter metered: what an orchestrator mounts.
import { createSimpleContext } from "@ctxkit/context-simple";
import { tiktokenCounter, type Message, type TokenCounter } from "@ctxkit/core";
import { type ContextSession, type ContextSystem, type Meter, WARM_UP_TEXT } from "./context-system.js";

/** Counts every tokenizer call into `meter`; ctxkit counts each message once, with one call. */
export function meteredCounter(meter: Meter, inner: TokenCounter = tiktokenCounter("o200k_base")): TokenCounter {
  return {
    name: inner.name,
    count(text: string): number {
      meter.tokenizerCalls += 1;
      meter.messagesMeasured += 1;
      return inner.count(text);
    },
  };
}

/** A session over any counter: the per-request benchmark swaps in a memoizing one for its untimed setup. */
export function createCtxkitSession(counter: TokenCounter): ContextSession {
  let compacted = false;
  const manager = createSimpleContext({
    tokenizer: counter,
    onEvent: (event) => {
      if (event === "context:pre_compact") compacted = true;
    },
  });
  return {
    isAddTimed: true,
    add: (message: Message) => manager.addMessage(message),
    load: (messages: readonly Message[]) => manager.setMessages([...messages]),
    request(budget: number) {
      compacted = false;
      return manager.getMessagesForRequest({ tokenBudget: budget });
    },
    decode: (view: unknown) => view as Message[],
    lastRequestCompacted: () => compacted,
    holes: () => 0,
    viewTokens: async () => (await manager.usage())?.tokens,
  };
}

export const ctxkitSystem: ContextSystem = {
  name: "ctxkit",
  createSession: (meter) => createCtxkitSession(meteredCounter(meter)),
  warmUp: () => void tiktokenCounter("o200k_base").count(WARM_UP_TEXT),
};
