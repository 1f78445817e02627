// Chat Completions chunks folded into the ChatCompletion a non-streamed request returns, tool-call arguments exactly as sent.
import type { StreamAssembly } from "@ctxkit/core/kit";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessage,
  ChatCompletionMessageFunctionToolCall,
} from "openai/resources/chat/completions";

interface ChoiceDraft {
  content?: string;
  refusal?: string;
  /** Tool calls by their `index` in the chunks: a call's id and name come once, its arguments in pieces. */
  calls: Map<number, { id: string; name: string; arguments: string }>;
  finishReason?: ChatCompletion.Choice["finish_reason"];
}

/**
 * Folds `stream: true` chunks (with `stream_options.include_usage`) into a `ChatCompletion`. The stream is
 * whole once every choice has its `finish_reason` and the closing usage chunk came: the SDK ends a cut
 * connection or an aborted request quietly, so whole is read from the chunks, not from the end of the loop.
 */
export function chatCompletionAssembly(): StreamAssembly<ChatCompletionChunk, ChatCompletion> {
  let first: ChatCompletionChunk | undefined;
  let usage: ChatCompletionChunk["usage"];
  const choices = new Map<number, ChoiceDraft>();
  return {
    add(chunk) {
      first ??= chunk;
      if (chunk.usage != null) usage = chunk.usage;
      for (const choice of chunk.choices) {
        const draft: ChoiceDraft = choices.get(choice.index) ?? { calls: new Map() };
        choices.set(choice.index, draft);
        const { delta } = choice;
        if (typeof delta.content === "string") draft.content = (draft.content ?? "") + delta.content;
        if (typeof delta.refusal === "string") draft.refusal = (draft.refusal ?? "") + delta.refusal;
        for (const call of delta.tool_calls ?? []) {
          const held = draft.calls.get(call.index) ?? { id: "", name: "", arguments: "" };
          draft.calls.set(call.index, {
            id: call.id ?? held.id,
            name: held.name + (call.function?.name ?? ""),
            arguments: held.arguments + (call.function?.arguments ?? ""),
          });
        }
        if (choice.finish_reason != null) draft.finishReason = choice.finish_reason;
      }
    },
    finish() {
      if (first === undefined || usage == null || choices.size === 0) return undefined;
      if ([...choices.values()].some((draft) => draft.finishReason === undefined)) return undefined;
      return {
        id: first.id,
        object: "chat.completion",
        created: first.created,
        model: first.model,
        choices: [...choices.entries()]
          .sort(([left], [right]) => left - right)
          .map(([index, draft]) => ({ index, message: messageOf(draft), logprobs: null, finish_reason: draft.finishReason! })),
        usage,
        ...(first.service_tier === undefined ? {} : { service_tier: first.service_tier }),
        ...(first.system_fingerprint === undefined ? {} : { system_fingerprint: first.system_fingerprint }),
      };
    },
  };
}

function messageOf(draft: ChoiceDraft): ChatCompletionMessage {
  const calls: ChatCompletionMessageFunctionToolCall[] = [...draft.calls.entries()]
    .sort(([left], [right]) => left - right)
    .map(([, call]) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } }));
  return {
    role: "assistant",
    content: draft.content ?? null,
    refusal: draft.refusal ?? null,
    ...(calls.length === 0 ? {} : { tool_calls: calls }),
  };
}
