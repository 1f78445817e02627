// `prepareStep` and `onStepFinish` for generateText/streamText: the same job as the middleware, at the message level.
import { reportProviderUsage, type ContextManager } from "@ctxkit/core";
import { HistorySync, parseProviderUsage, type ProviderUsageFields } from "@ctxkit/core/kit";
import type { ModelMessage, SystemModelMessage } from "ai";
import { requestView, type ContextOptions } from "./context-options.js";
import { fromModelMessages } from "./from-model-messages.js";
import { toModelMessages } from "./to-model-messages.js";
import { withoutEditedItemIdsIn } from "./without-edited-item-ids.js";
import { isModelIdentity, modelProvenance, type ModelIdentity } from "./ai-sdk-provenance.js";

export type ContextStepsOptions = ContextOptions;

// A step's usage: a provider may leave `inputTokens` out, which is no fault.
const STEP_USAGE_FIELDS: ProviderUsageFields = { input: ["inputTokens"], output: "outputTokens", requireInput: false };

export interface PreparedStep {
  system?: string | SystemModelMessage[];
  messages: ModelMessage[];
}

export interface ContextSteps {
  /** Adds the step's new messages to the manager and returns its view as the step's `system` and `messages`. */
  prepareStep(options: {
    messages: ModelMessage[];
    stepNumber: number;
    steps: ReadonlyArray<{ response: { messages: readonly ModelMessage[] }; model?: ModelIdentity }>;
    /** The step's model: its prompt leaves out the reasoning another provider or model produced. */
    model?: unknown;
  }): Promise<PreparedStep>;
  /** Adds the step's response messages (its tool results included) to the manager, and reports its usage. */
  onStepFinish(step: {
    response: { messages: readonly ModelMessage[] };
    /** The model that produced the step, recorded as its response's provenance. */
    model?: ModelIdentity;
    usage: { inputTokens: number | undefined; outputTokens: number | undefined };
  }): Promise<void>;
}

/**
 * `generateText({ model, tools, messages, ...createContextSteps(manager) })`. The history keeps the AI SDK's
 * own response messages, the last step's tool results included. The `system` option is not shown to
 * `prepareStep`: add the system prompt to the manager instead, and it comes out as each step's `system`.
 *
 * One instance follows one conversation: give each conversation its own.
 */
export function createContextSteps(manager: ContextManager, options: ContextStepsOptions = {}): ContextSteps {
  const sync = new HistorySync(manager);
  let initial: ModelMessage[] = [];
  return {
    async prepareStep({ messages, stepNumber, steps, model }) {
      if (stepNumber === 0) initial = messages;
      // After the first step the conversation is read from the steps, not from `messages`: an AI SDK that
      // carries a step's override forward would hand back the view, which is not the conversation.
      const conversation = stepNumber === 0 ? messages : [...initial, ...(steps.at(-1)?.response.messages ?? [])];
      const last = steps.at(-1);
      await sync.addPrompt(withResponseProvenance(conversation, stepNumber === 0 ? 0 : initial.length, last?.model));
      const view = await withoutEditedItemIdsIn(
        await requestView(manager, { system: [], tools: undefined, signal: undefined }, options),
        manager,
      );
      const target = options.checkProvenance !== false && isModelIdentity(model) ? { targetModel: model } : {};
      const prompt = toModelMessages(view, target);
      // System messages put in `messages` are not stored; they stay where the caller put them.
      const inline = messages.filter((message) => message.role === "system");
      return inline.length === 0 ? prompt : { ...prompt, messages: [...inline, ...prompt.messages] };
    },
    async onStepFinish(step) {
      // Read before the response is stored: bad usage is ignored (context:usage_rejected), never a failed step.
      const usage = parseProviderUsage(step.usage, STEP_USAGE_FIELDS);
      // As a continuation of the step's prompt, so a response prepareStep already added is not added again.
      await sync.addPrompt(withResponseProvenance([...initial, ...step.response.messages], initial.length, step.model));
      await reportProviderUsage(manager, usage, {
        provider: "AI SDK step",
        ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
      });
    },
  };
}

/** The conversation as ctxkit messages, the ones from `responsesFrom` on recorded as produced by `model`. */
function withResponseProvenance(conversation: readonly ModelMessage[], responsesFrom: number, model: ModelIdentity | undefined) {
  const provenance = model === undefined ? undefined : modelProvenance(model);
  if (provenance === undefined || responsesFrom >= conversation.length) return fromModelMessages(conversation);
  return [
    ...fromModelMessages(conversation.slice(0, responsesFrom)),
    ...fromModelMessages(conversation.slice(responsesFrom), { provenance }),
  ];
}
