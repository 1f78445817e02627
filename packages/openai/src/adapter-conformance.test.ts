import { checkChatCompletionRequest, replyTo, type ScriptedReply } from "@ctxkit/conformance";
import { describeAdapter } from "@ctxkit/conformance/vitest";
import type OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { fromChatCompletionMessages } from "./chat-completions/from-chat-completion-messages.js";
import { toChatCompletionMessages } from "./chat-completions/to-chat-completion-messages.js";
import { contextChatCompletions } from "./loop/context-chat-completions.js";
import { contextResponses } from "./loop/context-responses.js";
import { fromResponseInputItems } from "./responses/from-response-input-items.js";
import { toResponseInputItems } from "./responses/to-response-input-items.js";

const tooLong = (message: string) => Object.assign(new Error(`400 ${message}`), { status: 400, code: "context_length_exceeded" });

/** A Chat Completions client that holds each request to the kit's rules and answers as the loop checks script it. */
function scriptedChatClient(scripted: ScriptedReply): Pick<OpenAI, "chat"> {
  const create = async (body: { messages: unknown; model: string }) => {
    const problems = checkChatCompletionRequest(body.messages);
    if (problems.length > 0) throw Object.assign(new Error(`400 ${problems[0]}`), { status: 400 });
    const reply = replyTo(scripted, body.messages);
    if (reply.kind === "too-long") throw tooLong("This model's maximum context length is 128000 tokens.");
    const { usage } = reply;
    return {
      id: "chatcmpl-scripted",
      object: "chat.completion",
      created: 1_760_000_000,
      model: body.model,
      choices: [{ index: 0, message: { role: "assistant", content: reply.text, refusal: null }, logprobs: null, finish_reason: "stop" }],
      usage: usage === null ? null : { prompt_tokens: usage.input, completion_tokens: usage.output },
    };
  };
  return { chat: { completions: { create } } } as unknown as Pick<OpenAI, "chat">;
}

/** A Responses client that answers as the loop checks script it. */
function scriptedResponsesClient(scripted: ScriptedReply): Pick<OpenAI, "responses"> {
  const create = async (body: { input: unknown; model: string }) => {
    if (!Array.isArray(body.input) || body.input.length === 0) throw Object.assign(new Error("400 input: expected items"), { status: 400 });
    const reply = replyTo(scripted, body.input);
    if (reply.kind === "too-long") throw tooLong("Your input exceeds the context window of this model.");
    const { usage } = reply;
    return {
      id: "resp_scripted",
      object: "response",
      status: "completed",
      model: body.model,
      output: [
        {
          type: "message",
          id: "msg_scripted",
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: reply.text, annotations: [] }],
        },
      ],
      usage: usage === null ? null : { input_tokens: usage.input, output_tokens: usage.output },
    };
  };
  return { responses: { create } } as unknown as Pick<OpenAI, "responses">;
}

describeAdapter<ChatCompletionMessageParam[]>("@ctxkit/openai Chat Completions", {
  name: "chat-completions",
  toProvider: toChatCompletionMessages,
  fromProvider: fromChatCompletionMessages,
  validate: checkChatCompletionRequest,
  // The loop takes only what is new since the last call: the manager holds the rest.
  loop: {
    inputs: ["new"],
    repliesPerRequest: true,
    call: (manager, input, reply) =>
      contextChatCompletions(scriptedChatClient(reply), manager).create({
        model: "gpt-4.1-mini",
        messages: toChatCompletionMessages([...input]),
      }),
  },
});

describeAdapter<ResponseInputItem[]>("@ctxkit/openai Responses", {
  name: "responses",
  toProvider: toResponseInputItems,
  fromProvider: fromResponseInputItems,
  loop: {
    inputs: ["new"],
    repliesPerRequest: true,
    call: (manager, input, reply) =>
      contextResponses(scriptedResponsesClient(reply), manager).create({ model: "gpt-4.1-mini", input: toResponseInputItems([...input]) }),
  },
});
