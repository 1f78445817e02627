import { checkAnthropicRequest } from "@ctxkit/conformance";
import { describeAdapter } from "@ctxkit/conformance/vitest";
import { hasToolCalls, isInstruction, type Message } from "@ctxkit/core";
import { textOfContent } from "@ctxkit/core/kit";
import { fromAnthropicMessages } from "./from-anthropic-messages.js";
import { DEFAULT_OPENING_USER_TEXT, toAnthropicMessages, type AnthropicRequest } from "./to-anthropic-messages.js";

const isSent = (message: Message) =>
  !isInstruction(message) &&
  (hasToolCalls(message) ||
    message.role === "tool" ||
    textOfContent(message.content).trim() !== "" ||
    (Array.isArray(message.content) && message.content.some((part) => part.type !== "text" && part.type !== "refusal")));

describeAdapter<AnthropicRequest>("@ctxkit/anthropic", {
  name: "anthropic",
  toProvider: (messages) => toAnthropicMessages(messages),
  // The suite also passes junk in place of a request, hence `?.`.
  fromProvider: (request) => fromAnthropicMessages(request?.messages, request?.system === undefined ? {} : { system: request.system }),
  validate: checkAnthropicRequest,
  // Documented: a request that would open with the assistant opens with a user text instead.
  normalize: (messages) =>
    messages.find(isSent)?.role === "assistant" ? [{ role: "user", content: DEFAULT_OPENING_USER_TEXT }, ...messages] : messages,
});
