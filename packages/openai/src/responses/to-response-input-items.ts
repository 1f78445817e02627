// A ctxkit view as Responses API input items.
import { stripReasoning, unsupportedPartError } from "@ctxkit/core/kit";
import { toProviderMessages, type AssistantMessage, type ContentPart, type Message } from "@ctxkit/core";
import type { ResponseFunctionCallOutputItemList, ResponseInputContent, ResponseInputItem } from "openai/resources/responses/responses";
import { isFilePart, isImageUrlPart, isRefusalPart, isTextPart } from "../content-parts.js";
import { isCompactionPart } from "./compaction-records.js";
import { isReasoningPart } from "./reasoning-part.js";
import { forResponsesModel } from "./openai-provenance.js";

export interface ToResponseInputItemsOptions {
  /**
   * The model the request goes to. Reasoning and compaction items whose recorded provenance (`metadata.provenance`)
   * names another model, or another account when both name one, are left out, whole; items with no provenance go as
   * they are. Without it, every item goes as stored.
   */
  targetModel?: string;
  /** The account the request is sent with (`accountOf(client)`), compared with the one a provenance names. */
  account?: string;
}

/**
 * The view as `ResponseInputItem[]` for `client.responses.create({ input })`: each message becomes a message
 * item, each tool call a `function_call` right after its assistant message, each tool result a
 * `function_call_output`, and a kept reasoning item goes back where it was. `metadata` is left out.
 * A part the Responses API cannot take throws `ContextValidationError`.
 */
export function toResponseInputItems(view: readonly Message[], options: ToResponseInputItemsOptions = {}): ResponseInputItem[] {
  const { targetModel, account } = options;
  const target = targetModel === undefined ? undefined : { model: targetModel, ...(account === undefined ? {} : { account }) };
  // Reasoning of other providers (Anthropic thinking, say) is left out whole; the Responses API's own goes back as it came.
  return stripReasoning(toProviderMessages(forResponsesModel(view, target)), { keep: isReasoningPart }).flatMap((message, index) =>
    toItems(message, index),
  );
}

function toItems(message: Message, index: number): ResponseInputItem[] {
  switch (message.role) {
    case "system":
    case "developer":
    case "user":
      return [{ type: "message", role: message.role, content: toInputContent(message.content, index) }];
    case "assistant":
      return fromAssistant(message, index);
    case "tool":
      return [{ type: "function_call_output", call_id: message.tool_call_id, output: toOutput(message.content, index) }];
  }
}

function fromAssistant(message: AssistantMessage, index: number): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  let text: string[] = [];
  const flushText = (): void => {
    if (text.length > 0) items.push({ type: "message", role: "assistant", content: text.join("") });
    text = [];
  };
  const parts: readonly ContentPart[] =
    typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content ?? []);
  parts.forEach((part, position) => {
    if (isTextPart(part)) text.push(part.text);
    else if (isRefusalPart(part)) text.push(part.refusal);
    else if (isReasoningPart(part)) {
      flushText();
      items.push(part);
    } else if (isCompactionPart(part)) {
      // Stored verbatim; sent in the input item's shape, its output-only fields (created_by) left out.
      flushText();
      items.push({ type: "compaction", encrypted_content: part.encrypted_content, ...(part.id == null ? {} : { id: part.id }) });
    } else throw refused(index, position, part, "an assistant message (text, refusal, reasoning and compaction)");
  });
  flushText();
  for (const call of message.tool_calls ?? []) {
    items.push({ type: "function_call", call_id: call.id, name: call.function.name, arguments: call.function.arguments });
  }
  // An empty turn still takes its place in the conversation.
  return items.length > 0 ? items : [{ type: "message", role: "assistant", content: "" }];
}

function toInputContent(content: string | readonly ContentPart[], index: number): string | ResponseInputContent[] {
  return typeof content === "string" ? content : toInputParts(content, index);
}

function toInputParts(content: readonly ContentPart[], index: number): ResponseInputContent[] {
  return content.map((part, position): ResponseInputContent => {
    if (isTextPart(part)) return { type: "input_text", text: part.text };
    if (isImageUrlPart(part)) return { type: "input_image", image_url: part.image_url.url, detail: part.image_url.detail ?? "auto" };
    if (isFilePart(part)) return { type: "input_file", ...part.file };
    throw refused(index, position, part, "an input message (text, image_url and file)");
  });
}

function toOutput(content: string | readonly ContentPart[], index: number): string | ResponseFunctionCallOutputItemList {
  if (typeof content === "string") return content;
  return toInputParts(content, index);
}

function refused(index: number, position: number, part: ContentPart, where: string) {
  return unsupportedPartError({ provider: "The Responses API", index, position, partType: part.type, where });
}
