import { checkChatCompletionRequest } from "@ctxkit/conformance";
import { describeAdapter } from "@ctxkit/conformance/vitest";
import type { ContextManager } from "@ctxkit/core";
import type { BaseMessage } from "@langchain/core/messages";
import { convertMessagesToCompletionsMessageParams } from "@langchain/openai";
import { createAgent, type AgentMiddleware } from "langchain";
import { scriptedModel } from "../test/__fixtures__/scripted-chat-model.js";
import { contextMiddleware } from "./context-middleware.js";
import { fromLangchainMessages } from "./from-langchain-messages.js";
import { toLangchainMessages } from "./to-langchain-messages.js";

// One middleware per conversation, as the README asks: the suite gives each conversation its own manager.
const middlewares = new WeakMap<ContextManager, AgentMiddleware>();
function middlewareFor(manager: ContextManager): AgentMiddleware {
  const existing = middlewares.get(manager) ?? contextMiddleware(manager);
  middlewares.set(manager, existing);
  return existing;
}

describeAdapter<BaseMessage[]>("@ctxkit/langchain", {
  name: "langchain",
  toProvider: toLangchainMessages,
  fromProvider: fromLangchainMessages,
  // The messages as ChatOpenAI sends them, held to Chat Completions' rules.
  validate: (messages) => checkChatCompletionRequest(convertMessagesToCompletionsMessageParams({ messages, model: "gpt-4.1-mini" })),
  keepsToolErrors: true,
  // An agent's state holds the whole conversation, or only the new messages without a checkpointer: both are taken.
  loop: {
    inputs: ["new", "whole"],
    repliesPerRequest: true,
    call: (manager, input, reply) =>
      createAgent({ model: scriptedModel(reply), middleware: [middlewareFor(manager)] }).invoke({
        messages: toLangchainMessages([...input]),
      }),
  },
});
