// The summary request that reuses the agent's cached prefix: the previous request's view as the loop sent it, then one ask.
import type { Message } from "@ctxkit/core";
import type { MessageCreateParamsNonStreaming, MessageParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";
import { forAnthropicModel } from "../anthropic-provenance.js";
import { toAnthropicMessages, type ToAnthropicOptions } from "../to-anthropic-messages.js";
import { fromLatestCompaction } from "./compaction-records.js";

/** What the strategy offers beside a summary request: the agent's last request, and the text that asks for the summary. */
export interface PrefixConversation {
  readonly messages: readonly Message[];
  readonly tools?: readonly unknown[];
  /** The model the agent's request was sent to (`RequestOptions.model`), when its loop named it. */
  readonly model?: string;
  readonly ask: string;
}

/** How the agent's `contextMessages` loop was set up, so the summary request repeats its bytes. */
export interface PrefixRequestOptions extends Pick<ToAnthropicOptions, "ttl" | "openingUserText"> {
  readonly model: string;
  /** The `system` the loop's `create` is given (it is not stored in the manager), when it is given one. */
  readonly system?: string | readonly TextBlockParam[];
  /** As the loop's `checkProvenance`. Default true. */
  readonly checkProvenance?: boolean;
}

/**
 * The request `contextMessages` sent for `conversation.messages` (same conversion, same system, same tools, a
 * breakpoint on its last block where the loop put one), with the ask as a text block after that block: in the
 * same user turn when the conversation ends with one, so roles still alternate. The prefix up to the breakpoint
 * is the agent's request byte for byte, which the provider then reads from its cache.
 */
export function prefixSummaryRequest(
  conversation: PrefixConversation,
  options: PrefixRequestOptions,
): Pick<MessageCreateParamsNonStreaming, "system" | "messages" | "tools"> {
  const targetModel = options.checkProvenance === false ? undefined : options.model;
  const sent = fromLatestCompaction(forAnthropicModel(conversation.messages, targetModel));
  const request = toAnthropicMessages(sent, {
    ...(options.ttl === undefined ? {} : { ttl: options.ttl }),
    ...(options.openingUserText === undefined ? {} : { openingUserText: options.openingUserText }),
    ...(targetModel === undefined ? {} : { targetModel }),
  });
  const ask: TextBlockParam = { type: "text", text: conversation.ask };
  const messages: MessageParam[] = [...request.messages];
  const last = messages.at(-1);
  if (last?.role === "user" && Array.isArray(last.content)) messages[messages.length - 1] = { ...last, content: [...last.content, ask] };
  else messages.push({ role: "user", content: [ask] });
  // As the loop puts them: the caller's system (a string as one text block, an empty one as none) before the view's.
  const given = options.system === undefined || options.system === "" ? [] : options.system;
  const system = [...(typeof given === "string" ? [{ type: "text" as const, text: given }] : given), ...(request.system ?? [])];
  return {
    ...(system.length === 0 ? {} : { system }),
    messages,
    ...(conversation.tools === undefined ? {} : { tools: conversation.tools as NonNullable<MessageCreateParamsNonStreaming["tools"]> }),
  };
}
