// Adapters with one flaw each, for proving the adapter suite catches it. The healthy one sends ctxkit's own
// shape with Anthropic-safe ids, the way a small real adapter would.
import { reportProviderUsage, sendWithRecovery, toProviderMessages, type ContextManager, type Message } from "@ctxkit/core";
import {
  acceptMessage,
  decodeToolCallId,
  encodeToolCallId,
  isSafeToolCallId,
  parseProviderUsage,
  readAdapterInput,
  runTurn,
  type ProviderUsageFields,
} from "@ctxkit/core/kit";
import { checkChatCompletionRequest } from "../../src/adapter/rules/check-chat-completion-request.js";
import type { AdapterLoop, AdapterSubject, ScriptedReply } from "../../src/adapter/adapter-subject.js";
import { replyTo } from "../../src/adapter/reply-to.js";

function mapIds(messages: readonly Message[], map: (id: string) => string): Message[] {
  return messages.map((message) => {
    if (message.role === "tool") return { ...message, tool_call_id: map(message.tool_call_id) };
    if (message.role !== "assistant" || message.tool_calls === undefined) return message;
    return { ...message, tool_calls: message.tool_calls.map((call) => ({ ...call, id: map(call.id) })) };
  });
}

function validate(payload: Message[]): string[] {
  const ids = payload.flatMap((message) =>
    message.role === "tool"
      ? [message.tool_call_id]
      : message.role === "assistant"
        ? (message.tool_calls ?? []).map((call) => call.id)
        : [],
  );
  // The payload is ctxkit's own shape, where a tool result's `is_error` belongs; Chat Completions' rules judge the rest.
  const withoutErrorFlags = payload.map((message) => {
    if (message.role !== "tool") return message;
    const { is_error: _flag, ...rest } = message;
    return rest;
  });
  return [
    ...checkChatCompletionRequest(withoutErrorFlags),
    ...ids.filter((id) => !isSafeToolCallId(id)).map((id) => `id "${id}" is not safe`),
  ];
}

// ── The loop: a provider that answers as the kit scripts, and a loop over it that stores only what succeeded ──

class PromptTooLongError extends Error {
  readonly status = 400;
}

const USAGE_FIELDS: ProviderUsageFields = { input: ["input", "cacheRead"], output: "output" };

/** The scripted provider: each request of the call answered as the script says for the view it was sent. */
async function answerOf(scripted: ScriptedReply, view: readonly Message[]): Promise<{ message: Message; usage: unknown }> {
  const reply = replyTo(scripted, view);
  if (reply.kind === "too-long") throw new PromptTooLongError("prompt is too long: 210000 tokens > 200000 maximum");
  return { message: { role: "assistant", content: reply.text }, usage: reply.usage };
}

function sendScripted(manager: ContextManager, reply: ScriptedReply, recoverOverflow = true) {
  return sendWithRecovery({
    manager,
    provider: "scripted",
    request: {},
    isOverflow: (error) => error instanceof PromptTooLongError,
    send: (view) => answerOf(reply, view),
    recoverOverflow,
  });
}

const keyOf = (message: Message) => JSON.stringify([message.role, message.content]);

/** How many messages at the start of `input` repeat the end of the stored history. */
function overlapOf(stored: readonly string[], input: readonly string[]): number {
  for (let start = Math.max(0, stored.length - input.length); start < stored.length; start += 1)
    if (stored.slice(start).every((key, index) => key === input[index])) return stored.length - start;
  return 0;
}

async function newMessagesOf(manager: ContextManager, input: readonly Message[]): Promise<Message[]> {
  const stored = (await manager.getMessages()).map(keyOf);
  return input.slice(overlapOf(stored, input.map(keyOf)));
}

export const healthyLoop: AdapterLoop = {
  inputs: ["new", "whole"],
  repliesPerRequest: true,
  async call(manager, input, reply) {
    const added = await newMessagesOf(manager, input);
    return runTurn(manager, async (turn) => {
      await turn.add(added);
      const answer = await sendScripted(manager, reply);
      const usage = parseProviderUsage(answer.usage, USAGE_FIELDS);
      await turn.add([answer.message]);
      await reportProviderUsage(manager, usage);
    });
  },
};

export const healthyAdapter: AdapterSubject<Message[]> = {
  name: "healthy",
  toProvider: (messages) => mapIds(toProviderMessages(messages), encodeToolCallId),
  fromProvider(payload) {
    const input = readAdapterInput("fromHealthy", "Pass what toProvider returned.");
    const messages = input
      .entries(payload, "payload")
      .map((entry) => acceptMessage(input, entry.value as unknown as Message, entry.index!));
    return mapIds(messages, decodeToolCallId);
  },
  validate,
  keepsToolErrors: true,
  loop: healthyLoop,
};

const flawed = (name: string, changes: Partial<AdapterSubject<Message[]>>): AdapterSubject<Message[]> => ({
  ...healthyAdapter,
  name,
  ...changes,
});

export const dropsToolResult = flawed("drops a tool result", {
  toProvider(messages) {
    const sent = healthyAdapter.toProvider(messages);
    const last = sent.findLastIndex((message) => message.role === "tool");
    return last < 0 ? sent : sent.filter((_message, index) => index !== last);
  },
});

export const reorders = flawed("reorders", {
  toProvider: (messages) => healthyAdapter.toProvider(messages).reverse(),
});

export const leaksMetadata = flawed("leaks metadata", {
  toProvider: (messages) => mapIds(messages, encodeToolCallId),
});

export const throwsTypeErrorOnNull = flawed("throws a TypeError on null", {
  fromProvider: (payload) => payload.flatMap((message) => mapIds([message], decodeToolCallId)),
});

export const emitsInvalidId = flawed("emits an invalid id", {
  toProvider: (messages) => toProviderMessages(messages),
});

export const losesContentPart = flawed("loses a content part", {
  toProvider: (messages) =>
    healthyAdapter
      .toProvider(messages)
      .map((message) =>
        Array.isArray(message.content) ? { ...message, content: message.content.filter((part) => part.type !== "image_url") } : message,
      ),
});

export const dropsToolErrorOnParts = flawed("drops is_error on a result given as parts", {
  toProvider: (messages) =>
    healthyAdapter.toProvider(messages).map((message) => {
      if (message.role !== "tool" || typeof message.content === "string") return message;
      const { is_error: _dropped, ...rest } = message;
      return rest;
    }),
});

/** Stores the answer, then hands the provider's figures to the manager unchecked: bad usage fails a stored turn. */
export const storesBeforeCheckingUsage = flawed("stores before checking usage", {
  loop: {
    ...healthyLoop,
    async call(manager, input, reply) {
      const added = await newMessagesOf(manager, input);
      const usage = await runTurn(manager, async (turn) => {
        await turn.add(added);
        const answer = await sendScripted(manager, reply);
        await turn.add([answer.message]);
        return (answer.usage ?? undefined) as { input?: number; cacheRead?: number; output?: number } | undefined;
      });
      // The figures go straight to the manager, which refuses what is no count: after the turn was stored.
      if (usage !== undefined && "reportUsage" in manager)
        await (manager as ContextManager & { reportUsage(usage: unknown): Promise<void> }).reportUsage({
          inputTokens: (usage.input ?? Number.NaN) + (usage.cacheRead ?? 0),
        });
    },
  },
});

/** Stores the caller's messages before the call and keeps them when the provider rejects it. */
export const keepsTurnOnRejection = flawed("keeps a rejected call's turn", {
  loop: {
    ...healthyLoop,
    async call(manager, input, reply) {
      for (const message of await newMessagesOf(manager, input)) await manager.addMessage(message);
      const answer = await sendScripted(manager, reply);
      await manager.addMessage(answer.message);
      await reportProviderUsage(manager, parseProviderUsage(answer.usage, USAGE_FIELDS));
    },
  },
});

/**
 * Tracks only what it saw since the caller last sent something that did not continue it, as the AI SDK
 * middleware once did: a caller who switches from new messages to the whole conversation gets it stored twice.
 */
const seenByManager = new WeakMap<ContextManager, string[]>();
export const duplicatesOnInputSwitch = flawed("duplicates the history on an input switch", {
  loop: {
    ...healthyLoop,
    async call(manager, input, reply) {
      const seen = seenByManager.get(manager) ?? [];
      const keys = input.map(keyOf);
      const isContinued = seen.length <= keys.length && seen.every((key, index) => keys[index] === key);
      const added = isContinued ? input.slice(seen.length) : input;
      const tracked = isContinued ? seen : [];
      return runTurn(manager, async (turn) => {
        await turn.add(added);
        const answer = await sendScripted(manager, reply);
        await turn.add([answer.message]);
        await reportProviderUsage(manager, parseProviderUsage(answer.usage, USAGE_FIELDS));
        seenByManager.set(manager, [...tracked, ...added.map(keyOf), keyOf(answer.message)]);
      });
    },
  },
});

/** Passes the provider's first context-length rejection on instead of asking the manager for a smaller view. */
export const neverRecoversOverflow = flawed("never recovers from an overflow", {
  loop: {
    ...healthyLoop,
    async call(manager, input, reply) {
      const added = await newMessagesOf(manager, input);
      return runTurn(manager, async (turn) => {
        await turn.add(added);
        const answer = await sendScripted(manager, reply, false);
        await turn.add([answer.message]);
        await reportProviderUsage(manager, parseProviderUsage(answer.usage, USAGE_FIELDS));
      });
    },
  },
});
