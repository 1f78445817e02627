import { checkModelPrompt } from "@ctxkit/conformance";
import { describeAdapter } from "@ctxkit/conformance/vitest";
import { fromModelMessages } from "./from-model-messages.js";
import { toModelMessages, type ModelPrompt } from "./to-model-messages.js";

describeAdapter<ModelPrompt>("@ctxkit/ai-sdk", {
  name: "ai-sdk",
  toProvider: toModelMessages,
  // The suite also passes junk in place of a prompt, hence `?.`.
  fromProvider: (prompt) => fromModelMessages(prompt?.messages, prompt?.system === undefined ? {} : { system: prompt.system }),
  validate: checkModelPrompt,
});
