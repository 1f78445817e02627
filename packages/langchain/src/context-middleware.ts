// A LangChain.js agent middleware that sends every model call the manager's view and gives the manager every message.
import {
  estimateCounter,
  reportProviderUsage,
  sendWithRecovery,
  type ContextManager,
  type EventHandler,
  type Provider,
  type RequestOptions,
  type TokenCounter,
} from "@ctxkit/core";
import { countMessageTokens, HistorySync, isInstruction, parseProviderUsage, runTurn, type ProviderUsageFields } from "@ctxkit/core/kit";
import type { BaseMessage } from "@langchain/core/messages";
import { createMiddleware, type AgentMiddleware } from "langchain";
import { fromLangchainMessage, fromLangchainMessages } from "./from-langchain-messages.js";
import { isContextOverflow } from "./is-context-overflow.js";
import { toLangchainMessages } from "./to-langchain-messages.js";
import { toolDefinitions } from "./tool-definitions.js";

export interface ContextMiddlewareOptions {
  /** The model's window (`contextWindow`, `maxOutputTokens`), which sets the budget of every view. */
  provider?: Provider;
  /** A fixed budget instead; the manager's `maxTokens` applies when neither is given. */
  tokenBudget?: number;
  /**
   * When the model rejects a call as too long, call it once more with the manager's smaller view
   * (`recoverOverflow`); a second rejection throws `ContextOverflowError`. Default: true.
   */
  recoverOverflow?: boolean;
  /**
   * Counts the system prompt, which is sent beside the view and not stored, so its tokens are kept free.
   * Default: core's `estimateCounter()`; the model's reported usage corrects the gap over the next calls.
   */
  systemCounter?: TokenCounter;
  /** Receives `context:usage_rejected` when the model reports a usage that is no count (the turn is kept, the usage ignored). */
  onEvent?: EventHandler;
}

// LangChain's `usage_metadata.input_tokens` counts the whole prompt, cached tokens included, for every integration.
const USAGE_FIELDS: ProviderUsageFields = { input: ["input_tokens"], output: "output_tokens" };
const PROVIDER = "LangChain chat model";

/** The agent's system prompt's tokens: it travels beside the view, and is never stored. */
function systemPromptTokens(system: BaseMessage | undefined, counter: TokenCounter): number {
  if (system === undefined) return 0;
  const { content } = system;
  const text = typeof content === "string" ? content : JSON.stringify(content);
  return text === "" ? 0 : countMessageTokens({ role: "system", content: text }, counter);
}

/**
 * `createAgent({ model, tools, middleware: [contextMiddleware(manager)] })`: before each model call the new
 * messages of the agent's state go into the manager and the model is called with the manager's view instead of
 * the whole state (the system prompt and tools sent beside it, their tokens kept free); after it, the model's
 * answer goes into the manager and its `usage_metadata` into `reportUsage`. A call the model rejects as too long
 * is made once more on the manager's smaller view. A call that fails (an error, an abort) takes its new messages
 * back out of the manager, so the manager holds only answered turns; the agent's state, which LangChain keeps,
 * still holds them, and the next call adds what the manager lacks.
 *
 * One middleware follows one conversation (one manager): give each conversation, or thread, its own.
 */
export function contextMiddleware(manager: ContextManager, options: ContextMiddlewareOptions = {}): AgentMiddleware {
  const sync = new HistorySync(manager);
  const counter = options.systemCounter ?? estimateCounter();
  return createMiddleware({
    name: "CtxkitContextMiddleware",
    async wrapModelCall(request, handler) {
      // Converted whole before anything is stored, so a message ctxkit cannot take leaves the manager as it was.
      const prompt = fromLangchainMessages(request.messages);
      // System messages in the agent's state (given with its input) are not stored either: they are sent as given,
      // ahead of the view, as the system prompt is, and their tokens kept free too.
      const instructions = request.messages.filter((_message, index) => isInstruction(prompt[index]!));
      const reserveTokens = prompt
        .filter(isInstruction)
        .reduce((total, message) => total + countMessageTokens(message, counter), systemPromptTokens(request.systemMessage, counter));
      const tools = toolDefinitions(request.tools);
      const signal = (request.runtime as { signal?: AbortSignal } | undefined)?.signal;
      const view: RequestOptions = {
        ...(options.provider === undefined ? {} : { provider: options.provider }),
        ...(options.tokenBudget === undefined ? {} : { tokenBudget: options.tokenBudget }),
        ...(tools.length === 0 ? {} : { tools }),
        ...(signal === undefined ? {} : { signal }),
        ...(reserveTokens === 0 ? {} : { reserveTokens }),
      };
      try {
        return await runTurn(manager, async (turn) => {
          await sync.addPrompt(prompt, turn);
          const answer = await sendWithRecovery({
            manager,
            provider: PROVIDER,
            request: view,
            isOverflow: isContextOverflow,
            ...(options.recoverOverflow === undefined ? {} : { recoverOverflow: options.recoverOverflow }),
            send: (messages) => Promise.resolve(handler({ ...request, messages: [...instructions, ...toLangchainMessages(messages)] })),
          });
          // Read and converted before the answer is stored: bad usage is ignored, never a failed turn.
          const usage = parseProviderUsage(answer.usage_metadata, USAGE_FIELDS);
          await sync.addResponse([fromLangchainMessage(answer)], turn);
          await reportProviderUsage(manager, usage, {
            provider: PROVIDER,
            ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
          });
          return answer;
        });
      } catch (error) {
        // The turn was taken back out: what the tracker recorded of it is no longer in the manager.
        sync.forget();
        throw error;
      }
    },
  });
}
