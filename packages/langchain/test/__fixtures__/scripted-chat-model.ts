// LangChain chat models that answer as a test scripts them, holding each request to Chat Completions' rules.
import { checkChatCompletionRequest, replyTo, type ScriptedReply, type ScriptedUsage } from "@ctxkit/conformance";
import { ContextOverflowError } from "@langchain/core/errors";
import { BaseChatModel, type BaseChatModelCallOptions } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, type UsageMetadata } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { convertMessagesToCompletionsMessageParams } from "@langchain/openai";

/** A request as ChatOpenAI would send its messages. */
export type SentMessages = ReturnType<typeof convertMessagesToCompletionsMessageParams>;

/** Answers the `call`-th request (from 0), or throws as the provider would. */
export type Answer = (request: SentMessages, call: number, options: BaseChatModelCallOptions) => AIMessage | Promise<AIMessage>;

export class ScriptedChatModel extends BaseChatModel {
  /** Every request the model received. */
  readonly requests: SentMessages[] = [];

  constructor(private readonly answer: Answer) {
    super({});
  }

  _llmType(): string {
    return "scripted";
  }

  // The script decides when to call a tool; the tools' schemas are not needed for that.
  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"]): Promise<ChatResult> {
    const request = convertMessagesToCompletionsMessageParams({ messages, model: "gpt-4.1-mini" });
    this.requests.push(request);
    const problems = checkChatCompletionRequest(request);
    if (problems.length > 0) throw Object.assign(new Error(`400 ${problems[0]}`), { status: 400 });
    const message = await this.answer(request, this.requests.length - 1, options);
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

/** LangChain's `usage_metadata` for a scripted usage: `input_tokens` holds the cached tokens too, as every integration reports it. */
function usageMetadataOf(usage: ScriptedUsage): UsageMetadata {
  const { input, cacheRead, output } = usage;
  const bothCounts = typeof input === "number" && typeof cacheRead === "number";
  // A malformed figure stays in the sum's place, so the usage is as malformed as the script made it.
  const inputTokens = cacheRead === undefined ? input : bothCounts ? input + cacheRead : typeof input === "number" ? cacheRead : input;
  return {
    input_tokens: inputTokens as number,
    output_tokens: output as number,
    total_tokens: 0,
    ...(typeof cacheRead === "number" ? { input_token_details: { cache_read: cacheRead } } : {}),
  };
}

/** An answer with `text` and, unless null, `usage_metadata` (typed loosely on purpose: a script's figures may be no counts). */
export function answerWith(text: string, usage: ScriptedUsage | null): AIMessage {
  const fields = { content: text, ...(usage === null ? {} : { usage_metadata: usageMetadataOf(usage) }) };
  return new AIMessage(fields as ConstructorParameters<typeof AIMessage>[0]);
}

export function tooLong(): ContextOverflowError {
  return new ContextOverflowError("This model's maximum context length is 128000 tokens.");
}

/** A model that answers each request as the kit's loop checks script it (`replyTo`). */
export function scriptedModel(scripted: ScriptedReply): ScriptedChatModel {
  return new ScriptedChatModel((request) => {
    const reply = replyTo(scripted, request);
    if (reply.kind === "too-long") throw tooLong();
    return answerWith(reply.text, reply.usage);
  });
}
