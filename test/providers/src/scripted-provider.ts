// One loopback server that answers the Messages, Chat Completions, Responses and Gemini APIs as a script says: an
// answer with the usage the test chooses (malformed ones included), a rejection of every request as too long, or
// either for each request as the kit counts it (`replyTo`).
// Each request is first held to the kit's strict rules for its API, so a loop that sends a bad request fails. A request
// with `stream: true` gets the answer as its API streams it, as the imitations stream theirs.
import { checkAnthropicRequest, checkChatCompletionRequest, replyTo, type ScriptedReply } from "@ctxkit/conformance";
import { anthropicError, streamedMessage } from "./anthropic-imitation.js";
import { streamedCompletion } from "./chat-completions-imitation.js";
import { scriptedGeminiReply } from "./gemini-imitation.js";
import { startLoopbackServer, type LoopbackServer, type Reply } from "./loopback-server.js";
import { openAIError, openAIId } from "./openai-errors.js";
import { streamedResponse } from "./responses-imitation.js";

/** How every request is answered, as the kit's loop checks script it (`usage` figures go into each API's own fields). */
export type ScriptedAnswer = ScriptedReply;

export interface ScriptedProvider extends LoopbackServer {
  /** How every request is answered until it is set again. */
  answer: ScriptedAnswer;
}

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function anthropicReply(body: Record<string, unknown>, scripted: ScriptedAnswer): Reply {
  const request = { system: body["system"], messages: body["messages"] };
  const problems = checkAnthropicRequest(request);
  if (problems.length > 0) return anthropicError(400, "invalid_request_error", problems[0]!);
  const answer = replyTo(scripted, request);
  if (answer.kind === "too-long") return anthropicError(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum");
  const usage = answer.usage;
  return {
    status: 200,
    body: {
      id: "msg_01ScriptedScriptedScripted",
      type: "message",
      role: "assistant",
      model: body["model"],
      content: [{ type: "text", text: answer.text, citations: null }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage:
        usage === null
          ? null
          : defined({ input_tokens: usage.input, cache_read_input_tokens: usage.cacheRead, output_tokens: usage.output }),
    },
  };
}

const TOO_LONG_OPENAI = openAIError(
  400,
  "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
  "messages",
  "context_length_exceeded",
);

function chatCompletionReply(body: Record<string, unknown>, scripted: ScriptedAnswer): Reply {
  const problems = checkChatCompletionRequest(body["messages"]);
  if (problems.length > 0) return openAIError(400, problems[0]!);
  const answer = replyTo(scripted, body["messages"]);
  if (answer.kind === "too-long") return TOO_LONG_OPENAI;
  const usage = answer.usage;
  return {
    status: 200,
    body: {
      id: openAIId("chatcmpl-"),
      object: "chat.completion",
      created: 1_760_000_000,
      model: body["model"],
      choices: [{ index: 0, message: { role: "assistant", content: answer.text, refusal: null }, logprobs: null, finish_reason: "stop" }],
      usage: usage === null ? null : defined({ prompt_tokens: usage.input, completion_tokens: usage.output }),
    },
  };
}

function responseReply(body: Record<string, unknown>, scripted: ScriptedAnswer): Reply {
  if (!Array.isArray(body["input"]) || body["input"].length === 0) return openAIError(400, "input: expected a non-empty array", "input");
  const answer = replyTo(scripted, body["input"]);
  if (answer.kind === "too-long")
    return openAIError(400, "Your input exceeds the context window of this model.", "input", "context_length_exceeded");
  const usage = answer.usage;
  return {
    status: 200,
    body: {
      id: openAIId("resp_"),
      object: "response",
      created_at: 1_760_000_000,
      status: "completed",
      model: body["model"],
      output: [
        {
          type: "message",
          id: openAIId("msg_"),
          status: "completed",
          role: "assistant",
          content: [{ type: "output_text", text: answer.text, annotations: [] }],
        },
      ],
      usage: usage === null ? null : defined({ input_tokens: usage.input, output_tokens: usage.output }),
    },
  };
}

/** A rejection stays a JSON error (before any event, as the APIs send it); an answer streams when it was asked to. */
function streamedIf(streamed: boolean, reply: Reply, stream: (body: unknown) => Reply): Reply {
  return streamed && reply.status === 200 ? stream(reply.body) : reply;
}

export async function startScriptedProvider(): Promise<ScriptedProvider> {
  const provider = { answer: { kind: "answer", text: "ok", usage: null } as ScriptedAnswer };
  const server = await startLoopbackServer(
    (path, body) => {
      const streamed = body["stream"] === true;
      if (path.endsWith("/messages"))
        return streamedIf(streamed, anthropicReply(body, provider.answer), (reply) => streamedMessage(reply as never, undefined));
      if (path.endsWith("/chat/completions")) {
        const includeUsage = (body["stream_options"] as { include_usage?: boolean } | undefined)?.include_usage === true;
        return streamedIf(streamed, chatCompletionReply(body, provider.answer), (reply) =>
          streamedCompletion(reply as never, includeUsage, undefined),
        );
      }
      if (/:(generateContent|streamGenerateContent)(\?|$)/.test(path)) return scriptedGeminiReply(path, body, provider.answer);
      if (path.endsWith("/responses"))
        return streamedIf(streamed, responseReply(body, provider.answer), (reply) => streamedResponse(reply as never, undefined));
      return openAIError(404, `no route ${path}`, null, null, "not_found");
    },
    () => openAIError(400, "We could not parse the JSON body of your request."),
  );
  return Object.assign(provider, server) as ScriptedProvider;
}
