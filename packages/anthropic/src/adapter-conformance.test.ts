import type Anthropic from "@anthropic-ai/sdk";
import { checkAnthropicRequest, replyTo, type ScriptedReply } from "@ctxkit/conformance";
import { describeAdapter } from "@ctxkit/conformance/vitest";
import type { Message } from "@ctxkit/core";
import { textOfContent } from "@ctxkit/core/kit";
import { fromAnthropicMessages } from "./from-anthropic-messages.js";
import { contextMessages } from "./loop/context-messages.js";
import { DEFAULT_OPENING_USER_TEXT, toAnthropicMessages, type AnthropicRequest } from "./to-anthropic-messages.js";

const isSent = (message: Message) =>
  message.role !== "system" &&
  message.role !== "developer" &&
  ((message.role === "assistant" && (message.tool_calls?.length ?? 0) > 0) ||
    message.role === "tool" ||
    textOfContent(message.content).trim() !== "" ||
    (Array.isArray(message.content) && message.content.some((part) => part.type !== "text" && part.type !== "refusal")));

/** A Messages client that holds each request to the kit's rules and answers as the loop checks script it. */
function scriptedClient(scripted: ScriptedReply): Pick<Anthropic, "messages"> {
  const create = async (body: { system?: unknown; messages: unknown; model: string }) => {
    const request = { ...(body.system === undefined ? {} : { system: body.system }), messages: body.messages };
    const problems = checkAnthropicRequest(request);
    if (problems.length > 0) throw Object.assign(new Error(`400 ${problems[0]}`), { status: 400 });
    const reply = replyTo(scripted, request);
    if (reply.kind === "too-long")
      throw Object.assign(new Error("400 prompt is too long: 210000 tokens > 200000 maximum"), { status: 400 });
    const { usage } = reply;
    return {
      id: "msg_01Scripted",
      type: "message",
      role: "assistant",
      model: body.model,
      content: [{ type: "text", text: reply.text, citations: null }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: usage === null ? null : { input_tokens: usage.input, cache_read_input_tokens: usage.cacheRead, output_tokens: usage.output },
    };
  };
  return { messages: { create } } as unknown as Pick<Anthropic, "messages">;
}

describeAdapter<AnthropicRequest>("@ctxkit/anthropic", {
  name: "anthropic",
  toProvider: (messages) => toAnthropicMessages(messages),
  // The suite also passes junk in place of a request, hence `?.`.
  fromProvider: (request) => fromAnthropicMessages(request?.messages, request?.system === undefined ? {} : { system: request.system }),
  validate: checkAnthropicRequest,
  // Documented: a request that would open with the assistant opens with a user text instead.
  normalize: (messages) =>
    messages.find(isSent)?.role === "assistant" ? [{ role: "user", content: DEFAULT_OPENING_USER_TEXT }, ...messages] : messages,
  keepsToolErrors: true,
  // contextMessages takes only what is new since the last call: the manager holds the rest.
  loop: {
    inputs: ["new"],
    repliesPerRequest: true,
    call: (manager, input, reply) =>
      contextMessages(scriptedClient(reply), manager).create({
        model: "claude-sonnet-4-6",
        max_tokens: 256,
        messages: toAnthropicMessages([...input], { cache: false }).messages,
      }),
  },
});
