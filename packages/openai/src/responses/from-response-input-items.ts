// Responses API items (a request's `input`, or a response's `output`) as ctxkit messages.
import { ContextValidationError, type AssistantMessage, type ContentPart, type Message, type ToolCall } from "@ctxkit/core";
import type { ResponseInputContent, ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";

export type ResponseItem = ResponseInputItem | ResponseOutputItem;

/**
 * The items as messages for `addMessage`. An assistant turn (reasoning, message, `function_call`s) becomes
 * one assistant message with `tool_calls`, its reasoning items kept whole as parts; a
 * `function_call_output` becomes a tool message. Items ctxkit cannot pair or place (hosted tool calls,
 * item references, custom tools) throw `ContextValidationError` naming their type.
 */
export function fromResponseInputItems(items: readonly ResponseItem[]): Message[] {
  const messages: Message[] = [];
  let turn: { content: ContentPart[]; toolCalls: ToolCall[] } | undefined;
  const flush = (): void => {
    if (turn !== undefined) messages.push(toAssistant(turn.content, turn.toolCalls));
    turn = undefined;
  };
  const openTurn = (): { content: ContentPart[]; toolCalls: ToolCall[] } => {
    // Text after this turn's calls starts the next turn: a message never carries text that followed its calls.
    if (turn !== undefined && turn.toolCalls.length > 0) flush();
    turn ??= { content: [], toolCalls: [] };
    return turn;
  };

  items.forEach((item, index) => {
    if (item.type === "message" || (item.type === undefined && "role" in item)) {
      if (item.role === "assistant") {
        openTurn().content.push(...assistantParts(item.content));
        return;
      }
      flush();
      messages.push({ role: item.role, content: typeof item.content === "string" ? item.content : item.content.map(fromInputPart) });
      return;
    }
    switch (item.type) {
      case "reasoning":
        openTurn().content.push({ ...item });
        return;
      case "function_call":
        (turn ??= { content: [], toolCalls: [] }).toolCalls.push({
          id: item.call_id,
          type: "function",
          function: { name: item.name, arguments: item.arguments },
        });
        return;
      case "function_call_output":
        flush();
        messages.push({
          role: "tool",
          tool_call_id: item.call_id,
          content: typeof item.output === "string" ? item.output : item.output.map(fromInputPart),
        });
        return;
      case "compaction":
        // Opaque and encrypted: kept verbatim as a record of its own, in its place.
        flush();
        messages.push({ role: "assistant", content: [{ ...item }] });
        return;
      default:
        throw new ContextValidationError(
          [
            {
              path: "type",
              message: `a "${item.type}" item has no ctxkit message form; only message, reasoning, function_call, function_call_output and compaction items do`,
            },
          ],
          { index },
        );
    }
  });
  flush();
  return messages;
}

function toAssistant(content: ContentPart[], toolCalls: ToolCall[]): AssistantMessage {
  const body = content.length === 0 ? (toolCalls.length > 0 ? null : "") : content;
  return toolCalls.length > 0 ? { role: "assistant", content: body, tool_calls: toolCalls } : { role: "assistant", content: body ?? "" };
}

type AssistantContent =
  | string
  | readonly (ResponseInputContent | { type: "output_text"; text: string } | { type: "refusal"; refusal: string })[];

function assistantParts(content: AssistantContent): ContentPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map((part): ContentPart => {
    switch (part.type) {
      case "output_text":
        return { type: "text", text: part.text };
      case "refusal":
        return { type: "refusal", refusal: part.refusal };
      default:
        return fromInputPart(part);
    }
  });
}

type InputPart = ResponseInputContent | Exclude<Extract<ResponseInputItem, { type: "function_call_output" }>["output"], string>[number];

/** Text and URL images map to ctxkit's parts; anything else (a file id image, a file) is kept as given. */
function fromInputPart(part: InputPart): ContentPart {
  if (part.type === "input_text") return { type: "text", text: part.text };
  if (part.type === "input_image" && typeof part.image_url === "string") {
    const detail = part.detail === "low" || part.detail === "high" ? { detail: part.detail } : {};
    return { type: "image_url", image_url: { url: part.image_url, ...detail } };
  }
  return { ...part };
}
