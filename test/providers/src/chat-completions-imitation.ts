// A strict imitation of POST /v1/chat/completions: OpenAI's checks and error bodies, a scripted model, o200k × 1.2 tokens (or as told).
import type { RecordedRequest, Reply } from "./loopback-server.js";
import { openAIError, openAIId, unexpectedProperty, unknownKey, unrecognizedArgument } from "./openai-errors.js";
import { DEFAULT_COUNTING, providerTokens, type ProviderCounting } from "./provider-tokens.js";
import { nextMove } from "./scripted-model.js";
import { piecesOf, sseFrame, streamFaultIn, type StreamFault } from "./stream-script.js";

const TOP_LEVEL = new Set([
  "model",
  "messages",
  "tools",
  "tool_choice",
  "max_tokens",
  "max_completion_tokens",
  "temperature",
  "top_p",
  "stream",
  "stream_options",
  "parallel_tool_calls",
  "user",
  "metadata",
  "store",
  "n",
  "seed",
  "response_format",
  "stop",
  "frequency_penalty",
  "presence_penalty",
  "logprobs",
  "top_logprobs",
  "reasoning_effort",
  "service_tier",
  "prompt_cache_key",
  "safety_identifier",
  "modalities",
  "audio",
  "prediction",
  "verbosity",
  "logit_bias",
]);
const MESSAGE_KEYS: Record<string, ReadonlySet<string>> = {
  system: new Set(["role", "content", "name"]),
  developer: new Set(["role", "content", "name"]),
  user: new Set(["role", "content", "name"]),
  assistant: new Set(["role", "content", "name", "tool_calls", "refusal", "audio"]),
  tool: new Set(["role", "content", "tool_call_id"]),
};
const TOOL_CALL_KEYS = new Set(["id", "type", "function"]);

type ChatMessage = Record<string, unknown> & { role: string };
type ToolCall = { id: string; type: string; function: { name: string; arguments: string } };

function textsOf(message: ChatMessage): string[] {
  const texts: string[] = [];
  const { content } = message;
  if (typeof content === "string") texts.push(content);
  if (Array.isArray(content))
    for (const part of content as { text?: string; refusal?: string }[]) texts.push(part.text ?? part.refusal ?? "");
  for (const call of (message["tool_calls"] as ToolCall[] | undefined) ?? []) texts.push(call.function.name, call.function.arguments);
  return texts;
}

/** The first rule the request breaks, as the API reports it; undefined when it is well formed. */
function check(body: Record<string, unknown>): Reply | undefined {
  const extra = unknownKey(body, TOP_LEVEL);
  if (extra !== undefined) return unrecognizedArgument(extra);
  if (typeof body["model"] !== "string") return openAIError(400, "you must provide a model parameter");
  const messages = body["messages"];
  if (!Array.isArray(messages) || messages.length === 0)
    return openAIError(
      400,
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      "messages",
      "empty_array",
    );
  let open: Set<string> | undefined;
  for (const [index, message] of (messages as ChatMessage[]).entries()) {
    const allowed = MESSAGE_KEYS[message.role];
    if (allowed === undefined)
      return openAIError(
        400,
        `Invalid value: '${message.role}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `messages[${index}].role`,
        "invalid_value",
      );
    const extraKey = unknownKey(message, allowed);
    if (extraKey !== undefined) return unexpectedProperty(extraKey, `messages.${index}`);
    if (open !== undefined && open.size > 0 && message.role !== "tool")
      return openAIError(
        400,
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`,
        `messages.[${index}].role`,
      );
    if (message.role === "tool") {
      const id = message["tool_call_id"];
      if (open === undefined || typeof id !== "string" || !open.has(id))
        return openAIError(
          400,
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
        );
      open.delete(id);
      continue;
    }
    open = undefined;
    if (message.role === "assistant" && message["tool_calls"] !== undefined) {
      const calls = message["tool_calls"] as ToolCall[];
      for (const [position, call] of calls.entries()) {
        const callKey = unknownKey(call, TOOL_CALL_KEYS);
        if (callKey !== undefined) return unexpectedProperty(callKey, `messages.${index}.tool_calls.${position}`);
        if (call.id.length > 40)
          return openAIError(
            400,
            `Invalid 'messages[${index}].tool_calls[${position}].id': string too long. Expected a string with maximum length 40, but got a string with length ${call.id.length} instead.`,
            `messages[${index}].tool_calls[${position}].id`,
            "string_above_max_length",
          );
      }
      open = new Set(calls.map((call) => call.id));
    }
    if (message.role === "user" && (message.content === null || message.content === undefined))
      return openAIError(400, `Invalid value for 'content': expected a string, got null.`, `messages.[${index}].content`);
  }
  if (open !== undefined && open.size > 0)
    return openAIError(
      400,
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(", ")}`,
      `messages.[${messages.length}].role`,
    );
  return undefined;
}

export function handleChatCompletion(
  body: Record<string, unknown>,
  record: RecordedRequest,
  counting: ProviderCounting = DEFAULT_COUNTING,
): Reply {
  const { ratio, window } = counting;
  const invalid = check(body);
  if (invalid !== undefined) return invalid;
  if (body["stream_options"] != null && body["stream"] !== true)
    return openAIError(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options");
  const messages = body["messages"] as ChatMessage[];
  const messageTokens = providerTokens(messages.flatMap(textsOf), messages.length, ratio);
  const toolTokens = body["tools"] === undefined ? 0 : providerTokens([JSON.stringify(body["tools"])], 0, ratio);
  const completionTokens = Number(body["max_completion_tokens"] ?? body["max_tokens"] ?? 0);
  const promptTokens = messageTokens + toolTokens;
  record.promptTokens = promptTokens;
  if (promptTokens + completionTokens > window) {
    const message =
      completionTokens > 0
        ? `This model's maximum context length is ${window} tokens. However, you requested ${promptTokens + completionTokens} tokens (${promptTokens} in the messages, ${completionTokens} in the completion). Please reduce the length of the messages or completion.`
        : `This model's maximum context length is ${window} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`;
    return openAIError(400, message, "messages", "context_length_exceeded");
  }
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const question = String(messages[lastUser]?.content ?? "");
  const resultsSince = messages.slice(lastUser + 1).filter((message) => message.role === "tool").length;
  const move = nextMove(question, resultsSince);
  const message =
    "call" in move
      ? {
          role: "assistant",
          content: null,
          refusal: null,
          annotations: [],
          tool_calls: [{ id: openAIId("call_"), type: "function", function: { name: "read_file", arguments: move.call } }],
        }
      : { role: "assistant", content: move.answer, refusal: null, annotations: [] };
  const outputTokens = providerTokens(textsOf(message as ChatMessage), 0, ratio);
  const reply = {
    status: 200,
    body: {
      id: openAIId("chatcmpl-"),
      object: "chat.completion",
      created: 1_760_000_000,
      model: body["model"],
      choices: [{ index: 0, message, logprobs: null, finish_reason: "call" in move ? "tool_calls" : "stop" }],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: outputTokens,
        total_tokens: promptTokens + outputTokens,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
      service_tier: "default",
      system_fingerprint: null,
    },
  };
  if (body["stream"] !== true) return reply;
  const includeUsage = (body["stream_options"] as { include_usage?: unknown } | undefined)?.include_usage === true;
  return streamedCompletion(reply.body, includeUsage, streamFaultIn(question));
}

/**
 * The completion as `stream: true` sends it: a first delta with the role, the content (or each call's id and name,
 * then its arguments) in pieces by index, a last delta with the finish reason, the usage in a chunk of no choices
 * when `stream_options.include_usage`, and `[DONE]`. Every chunk carries `usage: null` when the usage comes last.
 */
export function streamedCompletion(
  completion: { id: string; model: unknown; choices: { message: ChatMessage; finish_reason: string }[]; usage: unknown },
  includeUsage: boolean,
  fault: StreamFault | undefined,
): Reply {
  const [choice] = completion.choices;
  const message = choice!.message;
  const chunk = (choices: unknown[], usage?: unknown) => ({
    id: completion.id,
    object: "chat.completion.chunk",
    created: 1_760_000_000,
    model: completion.model,
    service_tier: "default",
    system_fingerprint: null,
    choices,
    ...(includeUsage ? { usage: usage ?? null } : {}),
  });
  const delta = (value: Record<string, unknown>, finishReason: string | null = null) =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);
  const calls = (message["tool_calls"] as ToolCall[] | undefined) ?? [];
  const chunks = [
    delta({ role: "assistant", content: calls.length > 0 ? null : "", refusal: null }),
    ...piecesOf(typeof message.content === "string" ? message.content : "", 12).map((piece) => delta({ content: piece })),
    ...calls.flatMap((call, index) => [
      delta({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }),
      ...piecesOf(call.function.arguments, 7).map((piece) => delta({ tool_calls: [{ index, function: { arguments: piece } }] })),
    ]),
    delta({}, choice!.finish_reason),
    ...(includeUsage ? [chunk([], completion.usage)] : []),
  ];
  const frames = chunks.map((value) => sseFrame(value));
  const half = Math.ceil(frames.length / 2);
  if (fault === "fail")
    return {
      status: 200,
      body: completion,
      events: [
        ...frames.slice(0, half),
        sseFrame({
          error: { message: "The server had an error while processing your request.", type: "server_error", param: null, code: null },
        }),
      ],
    };
  return { status: 200, body: completion, events: [...frames, sseFrame("[DONE]")], ...(fault === "stall" ? { stallAfter: half } : {}) };
}
