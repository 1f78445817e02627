import { checkChatCompletionRequest } from "@ctxkit/conformance";
import { describeAdapter } from "@ctxkit/conformance/vitest";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { fromChatCompletionMessages } from "./chat-completions/from-chat-completion-messages.js";
import { toChatCompletionMessages } from "./chat-completions/to-chat-completion-messages.js";
import { fromResponseInputItems } from "./responses/from-response-input-items.js";
import { toResponseInputItems } from "./responses/to-response-input-items.js";

describeAdapter<ChatCompletionMessageParam[]>("@ctxkit/openai Chat Completions", {
  name: "chat-completions",
  toProvider: toChatCompletionMessages,
  fromProvider: fromChatCompletionMessages,
  validate: checkChatCompletionRequest,
});

describeAdapter<ResponseInputItem[]>("@ctxkit/openai Responses", {
  name: "responses",
  toProvider: toResponseInputItems,
  fromProvider: fromResponseInputItems,
});
