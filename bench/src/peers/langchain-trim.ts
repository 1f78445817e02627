// LangChain.js trimMessages (@langchain/core), configured as its docs recommend, over the whole history per request.
import type { Message } from "@ctxkit/core";
import { type BaseMessage, type TrimMessagesFields, trimMessages } from "@langchain/core/messages";
import { type ContextSession, type ContextSystem, WARM_UP_TEXT } from "./context-system.js";
import { encodeLength } from "./js-tiktoken-encoder.js";
import { approximateMeasure, docsTiktokenMeasure, type ListCounter, listCounter, type MessageMeasure } from "./langchain-counters.js";
import { LangChainHistory } from "./langchain-messages.js";

/** The docs' options: keep the last messages and the system message, start on a human message, end on a human or tool one. */
const DOCS_OPTIONS = { strategy: "last", includeSystem: true, startOn: "human", endOn: ["human", "tool"] } satisfies Omit<
  TrimMessagesFields,
  "maxTokens" | "tokenCounter"
>;

export function createTrimSession(counter: ListCounter): ContextSession {
  const history = new LangChainHistory();
  return {
    isAddTimed: false,
    add: (message: Message) => history.add(message),
    load(messages: readonly Message[]) {
      for (const message of messages) history.add(message);
    },
    request: (budget: number) => trimMessages(history.messages, { ...DOCS_OPTIONS, maxTokens: budget, tokenCounter: counter }),
    decode: (view: unknown) => history.decode(view as BaseMessage[]),
    lastRequestCompacted: () => undefined,
    holes: () => history.holes,
  };
}

export interface TrimSystem extends ContextSystem {
  /** How the list counter measures one message: the replay memoizes it. */
  readonly measure: MessageMeasure;
}

export const langchainTiktokenSystem: TrimSystem = {
  name: "langchain · tiktoken",
  measure: docsTiktokenMeasure,
  createSession: (meter) => createTrimSession(listCounter(docsTiktokenMeasure, meter)),
  warmUp: () => void encodeLength(WARM_UP_TEXT),
};

export const langchainApproximateSystem: TrimSystem = {
  name: "langchain · approx",
  measure: approximateMeasure,
  createSession: (meter) => createTrimSession(listCounter(approximateMeasure, meter)),
};
