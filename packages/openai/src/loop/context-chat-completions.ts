// A Chat Completions client whose every request is the manager's view: the loop driven by ctxkit, streamed or not.
import { reportProviderUsage, sendWithRecovery, type ContextManager, type Message } from "@ctxkit/core";
import { parseProviderUsage, runTurn, storedStream, type ContextStream, type TurnInFlight } from "@ctxkit/core/kit";
import type OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { fromChatCompletionMessage, fromChatCompletionMessages } from "../chat-completions/from-chat-completion-messages.js";
import { toChatCompletionMessages } from "../chat-completions/to-chat-completion-messages.js";
import { chatCompletionAssembly } from "./chat-completion-assembly.js";
import { isContextLengthError } from "./is-context-length-error.js";
import { type ContextLoopOptions, viewRequestOptions } from "./loop-options.js";
import { CHAT_COMPLETION_USAGE_FIELDS } from "./openai-usage.js";

const PROVIDER = "OpenAI Chat Completions";

/** The SDK's per-request options (`signal`, `timeout`, `headers`), as its `create` takes them. */
type OpenAIRequestOptions = Parameters<OpenAI["chat"]["completions"]["create"]>[1];

export interface ContextChatCompletionParams extends Omit<ChatCompletionCreateParamsNonStreaming, "messages" | "stream"> {
  /** Only the messages new since the last call (the user's turn, tool results): the manager holds the rest. */
  messages?: ChatCompletionMessageParam[];
  stream?: false | null;
}

export interface ContextChatCompletionStreamParams extends Omit<ChatCompletionCreateParamsStreaming, "messages" | "stream"> {
  /** Only the messages new since the last call (the user's turn, tool results): the manager holds the rest. */
  messages?: ChatCompletionMessageParam[];
  /** Streams the answer; `stream_options.include_usage` is set for you, so the usage reaches the manager. */
  stream: true;
}

export interface ContextChatCompletions {
  /**
   * Adds `messages` to the manager, sends its view (tools counted), adds the response's message and
   * reports the usage. A request rejected as too long is retried once on a smaller view. A call that
   * rejects leaves the manager as it was: send the same messages again.
   */
  create(params: ContextChatCompletionParams, options?: OpenAIRequestOptions): Promise<ChatCompletion>;
  /**
   * With `stream: true`, resolves once the API accepted the view (a too-long one already retried on a smaller
   * view) to the chunks as they arrive. The answer is stored, as a non-streamed one, after the last chunk; a
   * stream that fails midway, is aborted or left early (`break`) leaves the manager as it was before the call.
   */
  create(
    params: ContextChatCompletionStreamParams,
    options?: OpenAIRequestOptions,
  ): Promise<ContextStream<ChatCompletionChunk, ChatCompletion>>;
}

/**
 * `contextChatCompletions(client, manager).create({ model, tools, messages: [newMessage] })`: every
 * request is the manager's view, every response goes into the manager. One per conversation.
 */
export function contextChatCompletions(
  client: Pick<OpenAI, "chat">,
  manager: ContextManager,
  options: ContextLoopOptions = {},
): ContextChatCompletions {
  /** Stores an answer (streamed and assembled, or not) the one way: the message, then the usage. */
  async function store(turn: TurnInFlight, completion: ChatCompletion): Promise<void> {
    // Read and converted before the answer is stored: bad usage is ignored, never a failed turn.
    const usage = parseProviderUsage(completion.usage, CHAT_COMPLETION_USAGE_FIELDS);
    const reply = completion.choices[0]?.message;
    await turn.add(reply === undefined ? [] : [fromChatCompletionMessage(reply)]);
    await reportProviderUsage(manager, usage, {
      provider: PROVIDER,
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
  }

  async function create(
    params: ContextChatCompletionParams | ContextChatCompletionStreamParams,
    requestOptions?: OpenAIRequestOptions,
  ): Promise<ChatCompletion | ContextStream<ChatCompletionChunk, ChatCompletion>> {
    const { messages = [], ...rest } = params;
    // Converted whole before anything is stored, so a bad message leaves the manager as it was.
    const added: Message[] = fromChatCompletionMessages(messages);
    const open = <T>(send: (messages: ChatCompletionMessageParam[]) => Promise<T>) =>
      sendWithRecovery({
        manager,
        provider: PROVIDER,
        request: viewRequestOptions(options, rest, requestOptions?.signal),
        isOverflow: isContextLengthError,
        ...(options.recoverOverflow === undefined ? {} : { recoverOverflow: options.recoverOverflow }),
        send: (view) => send(toChatCompletionMessages(view)),
      });
    // Stored only if the whole call succeeds: a rejection (too long, a network error, a bad answer) takes the turn back out.
    return runTurn(manager, async (turn) => {
      await turn.add(added);
      if (rest.stream === true) {
        const streamed = { ...rest, stream_options: { ...rest.stream_options, include_usage: true } };
        // The request's HTTP answer arrives before any chunk, so an overflow is retried here, before the caller reads.
        const events = await open((messages) => client.chat.completions.create({ ...streamed, messages }, requestOptions));
        return storedStream({
          turn,
          events,
          assembly: chatCompletionAssembly(),
          provider: PROVIDER,
          signal: requestOptions?.signal,
          store: (completion) => store(turn, completion),
        });
      }
      const { stream: _stream, ...unstreamed } = rest;
      const completion = await open((messages) => client.chat.completions.create({ ...unstreamed, messages }, requestOptions));
      await store(turn, completion);
      return completion;
    });
  }

  return { create: create as ContextChatCompletions["create"] };
}
