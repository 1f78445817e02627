// A module author's conformance test file for a manager whose requests never answer, with a short step bound.
import { createSimpleContext } from "../../../../context-simple/src/index.js";
import { describeContextManager } from "../../../src/vitest.js";

const hangingFactory = () => {
  const { addMessage, getMessages, setMessages, clear } = createSimpleContext();
  return { addMessage, getMessages, setMessages, clear, getMessagesForRequest: () => new Promise<never>(() => {}) };
};

describeContextManager("the hanging manager", hangingFactory, { runs: 3, seed: 1, timeoutMs: 300, only: ["pairing", "budget"] });
