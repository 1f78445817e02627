// A language-model middleware that sends every call the manager's view and gives the manager every message.
import { canRecoverOverflow, reportProviderUsage, type ContextManager, type RequestOptions } from "@ctxkit/core";
import { HistorySync, parseProviderUsage, TurnInFlight, type ProviderUsageFields } from "@ctxkit/core/kit";
import type { LanguageModelMiddleware, ModelMessage } from "ai";
import { toRequestOptions, type ContextOptions } from "./context-options.js";
import { fromModelMessages } from "./from-model-messages.js";
import { isContextOverflow } from "./is-context-overflow.js";
import type { LanguageModelCallOptions, LanguageModelPrompt, ModelUsage, ResponseContent, StreamPart } from "./language-model-types.js";
import { toResponseMessage } from "./response-message.js";
import { StreamContent } from "./stream-content.js";
import { toLanguageModelPrompt } from "./to-language-model-prompt.js";
import { withoutEditedItemIdsIn } from "./without-edited-item-ids.js";
import { modelProvenance, type ModelIdentity } from "./ai-sdk-provenance.js";

export interface ContextMiddlewareOptions extends ContextOptions {
  /**
   * When the provider rejects a prompt as too long, retry the call once with the manager's smaller view
   * (`recoverOverflow`). Default: true, for managers that have the capability.
   */
  recoverOverflow?: boolean;
}

// The AI SDK's usage: a provider may leave `inputTokens.total` out, which is no fault.
const USAGE_FIELDS: ProviderUsageFields = { input: ["inputTokens.total"], output: "outputTokens.total", requireInput: false };
const PROVIDER = "AI SDK language model";

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
 * provider's usage into `reportUsage`. Works with `generateText`, `streamText` and agents alike. A call
 * that fails takes its new messages back out of the manager, so the same prompt can be sent again.
 *
 * One middleware follows one conversation: give each conversation its own.
 */
export function contextMiddleware(manager: ContextManager, options: ContextMiddlewareOptions = {}): LanguageModelMiddleware {
  const sync = new HistorySync(manager);
  // The last call's system messages and request options, for a retry after an overflow.
  let last: { system: LanguageModelPrompt; request: RequestOptions; target: { targetModel?: ModelIdentity } } | undefined;
  // What the call in flight added, taken back out if it fails.
  let inFlight: TurnInFlight | undefined;

  /** The call's turn, once: a wrapper that was not given one (no transformParams) has nothing to undo. */
  function takeTurn(): TurnInFlight | undefined {
    const turn = inFlight;
    inFlight = undefined;
    return turn;
  }

  async function undo(turn: TurnInFlight | undefined): Promise<void> {
    sync.forget();
    try {
      await turn?.undo();
    } catch {
      // The call's own error is what the caller sees.
    }
  }

  async function afterCall(
    turn: TurnInFlight | undefined,
    content: readonly ResponseContent[],
    usage: ModelUsage | undefined,
    producedBy: { model: ModelIdentity; responseModelId: string | undefined },
  ): Promise<void> {
    // Read and converted before the response is stored: bad usage is ignored, never a failed turn.
    const parsed = parseProviderUsage(usage, USAGE_FIELDS);
    const response = toResponseMessage(content);
    const provenance = modelProvenance(producedBy.model, producedBy.responseModelId);
    const messages = response === undefined ? [] : fromModelMessages([response], provenance === undefined ? {} : { provenance });
    await sync.addResponse(messages, turn);
    await reportProviderUsage(manager, parsed, {
      provider: PROVIDER,
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
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
      return retry({ ...params, prompt: [...last.system, ...toLanguageModelPrompt(view, last.target)] });
    }
  }

  return {
    specificationVersion: "v3",

    async transformParams({ params, model }) {
      const system = params.prompt.filter((message) => message.role === "system");
      const rest = params.prompt.filter((message) => message.role !== "system");
      const turn = await TurnInFlight.begin(manager);
      inFlight = turn;
      try {
        await sync.addPrompt(fromModelMessages(rest.map(toModelMessage)), turn);
      } catch (error) {
        await undo(takeTurn());
        throw error;
      }
      const request = toRequestOptions(
        { system: system.map((message) => message.content), tools: params.tools, signal: params.abortSignal, model: model.modelId },
        options,
      );
      const target = options.checkProvenance === false ? {} : { targetModel: model };
      last = { system, request, target };
      const view = await withoutEditedItemIdsIn(await manager.getMessagesForRequest(request), manager);
      return { ...params, prompt: [...system, ...toLanguageModelPrompt(view, target)] };
    },

    async wrapGenerate({ doGenerate, params, model }) {
      const turn = takeTurn();
      try {
        const result = await withRecovery(doGenerate, (retried) => model.doGenerate(retried), params);
        await afterCall(turn, result.content, result.usage, { model, responseModelId: result.response?.modelId });
        return result;
      } catch (error) {
        await undo(turn);
        throw error;
      }
    },

    async wrapStream({ doStream, params, model }) {
      const turn = takeTurn();
      let result: Awaited<ReturnType<typeof doStream>>;
      try {
        result = await withRecovery(doStream, (retried) => model.doStream(retried), params);
      } catch (error) {
        await undo(turn);
        throw error;
      }
      const content = new StreamContent();
      let usage: ModelUsage | undefined;
      let responseModelId: string | undefined;
      let failed = false;
      const stream = result.stream.pipeThrough(
        new TransformStream(
          // `cancel` runs when the caller leaves midway (an aborted signal): as for a failed call, the turn is taken
          // back out. Added beside the literal because TypeScript's lib does not declare `Transformer.cancel` yet.
          Object.assign(
            {
              transform(part: StreamPart, controller: TransformStreamDefaultController<StreamPart>) {
                content.add(part);
                if (part.type === "finish") usage = part.usage;
                if (part.type === "response-metadata" && part.modelId !== undefined) responseModelId = part.modelId;
                if (part.type === "error") failed = true;
                controller.enqueue(part);
              },
              // The stream ends only once the response is in the manager, so the next step sees it there. A stream
              // that reported an error stored no answer: its turn is taken back out.
              flush: async () => {
                if (failed) return undo(turn);
                try {
                  await afterCall(turn, content.result(), usage, { model, responseModelId });
                } catch (error) {
                  await undo(turn);
                  throw error;
                }
              },
            },
            { cancel: () => undo(turn) },
          ),
        ),
      );
      return { ...result, stream };
    },
  };
}
