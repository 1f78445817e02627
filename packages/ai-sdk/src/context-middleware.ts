// A language-model middleware that sends every call the manager's view and gives the manager every message.
import { canRecoverOverflow, type ContextManager, type RequestOptions } from "@ctxkit/core";
import type { LanguageModelMiddleware, ModelMessage } from "ai";
import { toRequestOptions, type ContextOptions } from "./context-options.js";
import { fromModelMessages } from "./from-model-messages.js";
import { HistorySync } from "./history-sync.js";
import { isContextOverflow } from "./is-context-overflow.js";
import type { LanguageModelCallOptions, LanguageModelPrompt, ModelUsage, ResponseContent } from "./language-model-types.js";
import { reportUsage } from "./report-usage.js";
import { toResponseMessage } from "./response-message.js";
import { StreamContent } from "./stream-content.js";
import { toLanguageModelPrompt } from "./to-language-model-prompt.js";
import { withoutEditedItemIdsIn } from "./without-edited-item-ids.js";

export interface ContextMiddlewareOptions extends ContextOptions {
  /**
   * When the provider rejects a prompt as too long, retry the call once with the manager's smaller view
   * (`recoverOverflow`). Default: true, for managers that have the capability.
   */
  recoverOverflow?: boolean;
}

type PromptMessage = LanguageModelPrompt[number];

/**
 * The model-layer prompt is a subset of ModelMessage (files for images, arrays for contents). The AI SDK
 * turned a user's string into one text part on the way; it goes back to the string the caller wrote.
 */
function toModelMessage(message: PromptMessage): ModelMessage {
  if (message.role === "user" && message.content.length === 1) {
    const [only] = message.content;
    if (only!.type === "text" && only!.providerOptions === undefined) return { ...message, content: only!.text };
  }
  return message as unknown as ModelMessage;
}

/**
 * `wrapLanguageModel({ model, middleware: contextMiddleware(manager) })`: before each model call the new
 * messages of the prompt go into the manager and the prompt is replaced by the manager's view (system
 * messages kept as sent, their tokens kept free); after it, the response goes into the manager and the
 * provider's usage into `reportUsage`. Works with `generateText`, `streamText` and agents alike.
 *
 * One middleware follows one conversation: give each conversation its own.
 */
export function contextMiddleware(manager: ContextManager, options: ContextMiddlewareOptions = {}): LanguageModelMiddleware {
  const sync = new HistorySync(manager);
  // The last call's system messages and request options, for a retry after an overflow.
  let last: { system: LanguageModelPrompt; request: RequestOptions } | undefined;

  async function afterCall(content: readonly ResponseContent[], usage: ModelUsage | undefined): Promise<void> {
    const response = toResponseMessage(content);
    if (response !== undefined) await sync.addResponse(fromModelMessages([response]));
    await reportUsage(
      manager,
      usage === undefined ? undefined : { inputTokens: usage.inputTokens.total, outputTokens: usage.outputTokens.total },
    );
  }

  /** Runs a call; after an overflow, runs it again once on the manager's smaller view. */
  async function withRecovery<T>(
    call: () => PromiseLike<T>,
    retry: (params: LanguageModelCallOptions) => PromiseLike<T>,
    params: LanguageModelCallOptions,
  ): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (options.recoverOverflow === false || last === undefined || !isContextOverflow(error) || !canRecoverOverflow(manager)) throw error;
      const view = await withoutEditedItemIdsIn(await manager.recoverOverflow(error, last.request), manager);
      return retry({ ...params, prompt: [...last.system, ...toLanguageModelPrompt(view)] });
    }
  }

  return {
    specificationVersion: "v3",

    async transformParams({ params }) {
      const system = params.prompt.filter((message) => message.role === "system");
      const rest = params.prompt.filter((message) => message.role !== "system");
      await sync.addPrompt(fromModelMessages(rest.map(toModelMessage)));
      const request = toRequestOptions(
        { system: system.map((message) => message.content), tools: params.tools, signal: params.abortSignal },
        options,
      );
      last = { system, request };
      const view = await withoutEditedItemIdsIn(await manager.getMessagesForRequest(request), manager);
      return { ...params, prompt: [...system, ...toLanguageModelPrompt(view)] };
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const result = await withRecovery(doGenerate, (retried) => model.doGenerate(retried), params);
      await afterCall(result.content, result.usage);
      return result;
    },

    async wrapStream({ doStream, params, model }) {
      const result = await withRecovery(doStream, (retried) => model.doStream(retried), params);
      const content = new StreamContent();
      let usage: ModelUsage | undefined;
      const stream = result.stream.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            content.add(part);
            if (part.type === "finish") usage = part.usage;
            controller.enqueue(part);
          },
          // The stream ends only once the response is in the manager, so the next step sees it there.
          flush: () => afterCall(content.result(), usage),
        }),
      );
      return { ...result, stream };
    },
  };
}
