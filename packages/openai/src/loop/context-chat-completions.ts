// A Chat Completions client whose every request is the manager's view: the loop driven by ctxkit.
import { ContextRequestError, reportProviderUsage, sendWithRecovery, type ContextManager, type Message } from "@ctxkit/core";
import { parseProviderUsage, runTurn } from "@ctxkit/core/kit";
import type OpenAI from "openai";
import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { fromChatCompletionMessage, fromChatCompletionMessages } from "../chat-completions/from-chat-completion-messages.js";
import { toChatCompletionMessages } from "../chat-completions/to-chat-completion-messages.js";
import { isContextLengthError } from "./is-context-length-error.js";
import type { ContextLoopOptions } from "./loop-options.js";
import { CHAT_COMPLETION_USAGE_FIELDS } from "./openai-usage.js";

const PROVIDER = "OpenAI Chat Completions";

/** The SDK's per-request options (`signal`, `timeout`, `headers`), as its `create` takes them. */
type OpenAIRequestOptions = Parameters<OpenAI["chat"]["completions"]["create"]>[1];

export interface ContextChatCompletionParams extends Omit<ChatCompletionCreateParamsNonStreaming, "messages" | "stream"> {
  /** Only the messages new since the last call (the user's turn, tool results): the manager holds the rest. */
  messages?: ChatCompletionMessageParam[];
  /** Streaming is not supported here: use the conversions with `client.chat.completions.stream`. */
  stream?: false | null;
}

export interface ContextChatCompletions {
  /**
   * Adds `messages` to the manager, sends its view (tools counted), adds the response's message and
   * reports the usage. A request rejected as too long is retried once on a smaller view. A call that
   * rejects leaves the manager as it was: send the same messages again.
   */
  create(params: ContextChatCompletionParams, options?: OpenAIRequestOptions): Promise<ChatCompletion>;
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
  return {
    async create(params, requestOptions) {
      const { messages = [], ...rest } = params;
      if ((rest as { stream?: unknown }).stream === true) throw streamingRefused("contextChatCompletions");
      // Converted whole before anything is stored, so a bad message leaves the manager as it was.
      const added: Message[] = fromChatCompletionMessages(messages);
      // Stored only if the whole call succeeds: a rejection (too long, a network error, a bad answer) takes the turn back out.
      return runTurn(manager, async (turn) => {
        await turn.add(added);
        const completion = await sendWithRecovery({
          manager,
          provider: PROVIDER,
          request: {
            ...(options.provider === undefined ? {} : { provider: options.provider }),
            ...(options.tokenBudget === undefined ? {} : { tokenBudget: options.tokenBudget }),
            ...(rest.tools === undefined ? {} : { tools: rest.tools }),
            ...(requestOptions?.signal == null ? {} : { signal: requestOptions.signal }),
          },
          isOverflow: isContextLengthError,
          ...(options.recoverOverflow === undefined ? {} : { recoverOverflow: options.recoverOverflow }),
          send: (view) => client.chat.completions.create({ ...rest, messages: toChatCompletionMessages(view) }, requestOptions),
        });
        // Read and converted before the answer is stored: bad usage is ignored, never a failed turn.
        const usage = parseProviderUsage(completion.usage, CHAT_COMPLETION_USAGE_FIELDS);
        const reply = completion.choices[0]?.message;
        await turn.add(reply === undefined ? [] : [fromChatCompletionMessage(reply)]);
        await reportProviderUsage(manager, usage, {
          provider: PROVIDER,
          ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
        });
        return completion;
      });
    },
  };
}

export function streamingRefused(driver: string): ContextRequestError {
  return new ContextRequestError([
    {
      path: "stream",
      message: `${driver} does not stream; call create without stream, or stream with the SDK itself from toChatCompletionMessages / toResponseInputItems and add the result with the from… conversions`,
    },
  ]);
}
