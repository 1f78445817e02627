// Responses API items (a request's `input`, or a response's `output`) as ctxkit messages.
import type { AssistantMessage, ContentPart, Message, ToolCall } from "@ctxkit/core";
import { acceptMessage, readAdapterInput, withProvenance, type InputRecord, type Provenance } from "@ctxkit/core/kit";
import type { ResponseInputItem, ResponseOutputItem } from "openai/resources/responses/responses";

export type ResponseItem = ResponseInputItem | ResponseOutputItem;

const FIX = "Pass items as the openai SDK types them (ResponseInputItem, or a response's output items); nothing was converted.";

interface Turn {
  content: ContentPart[];
  toolCalls: ToolCall[];
  index: number;
}

/**
 * The items as messages for `addMessage`. An assistant turn (reasoning, message, `function_call`s) becomes
 * one assistant message with `tool_calls`, its reasoning items kept whole as parts; a
 * `function_call_output` becomes a tool message. Items ctxkit cannot pair or place (hosted tool calls,
 * item references, custom tools) and malformed items throw `AdapterInputError` naming the item and the field.
 */
export function fromResponseInputItems(items: readonly ResponseItem[], options: FromResponseInputItemsOptions = {}): Message[] {
  const messages = convert(items);
  return options.provenance === undefined ? messages : withProvenance(messages, options.provenance);
}

export interface FromResponseInputItemsOptions {
  /**
   * Who produced the output (`openAIProvenance(response.model, account)`), recorded as each assistant message's
   * `metadata.provenance`, so a later request to another model leaves its reasoning and compaction items out.
   */
  provenance?: Provenance;
}

function convert(items: readonly ResponseItem[]): Message[] {
  const input = readAdapterInput("fromResponseInputItems", FIX);
  const messages: Message[] = [];
  let turn: Turn | undefined;
  const flush = (): void => {
    if (turn !== undefined) messages.push(acceptMessage(input, toAssistant(turn.content, turn.toolCalls), turn.index));
    turn = undefined;
  };
  const openTurn = (index: number): Turn => {
    // Text after this turn's calls starts the next turn: a message never carries text that followed its calls.
    if (turn !== undefined && turn.toolCalls.length > 0) flush();
    turn ??= { content: [], toolCalls: [], index };
    return turn;
  };

  for (const item of input.entries(items, "items")) {
    const index = item.index!;
    const type = item.optionalString("type") ?? (item.has("role") ? "message" : undefined);
    switch (type) {
      case "message": {
        const role = item.oneOf("role", ["user", "system", "developer", "assistant"]);
        const content = item.stringOrRecords("content");
        if (role === "assistant") {
          openTurn(index).content.push(...assistantParts(content));
          break;
        }
        flush();
        messages.push(acceptMessage(input, { role, content: typeof content === "string" ? content : content.map(fromInputPart) }, index));
        break;
      }
      case "reasoning":
        item.string("id");
        openTurn(index).content.push({ ...item.value, type });
        break;
      case "function_call":
        (turn ??= { content: [], toolCalls: [], index }).toolCalls.push({
          id: item.nonEmptyString("call_id"),
          type: "function",
          function: { name: item.nonEmptyString("name"), arguments: item.string("arguments") },
        });
        break;
      case "function_call_output": {
        flush();
        const output = item.stringOrRecords("output");
        const content = typeof output === "string" ? output : output.map(fromInputPart);
        messages.push(acceptMessage(input, { role: "tool", tool_call_id: item.nonEmptyString("call_id"), content }, index));
        break;
      }
      case "compaction":
        // Opaque and encrypted: kept verbatim as a record of its own, in its place.
        flush();
        messages.push(acceptMessage(input, { role: "assistant", content: [{ ...item.value, type }] }, index));
        break;
      default:
        item.fail(
          `a ${JSON.stringify(type ?? null)} item has no ctxkit message form; only message, reasoning, function_call, function_call_output and compaction items do`,
          "type",
        );
    }
  }
  flush();
  return messages;
}

function toAssistant(content: ContentPart[], toolCalls: ToolCall[]): AssistantMessage {
  const body = content.length === 0 ? (toolCalls.length > 0 ? null : "") : content;
  return toolCalls.length > 0 ? { role: "assistant", content: body, tool_calls: toolCalls } : { role: "assistant", content: body ?? "" };
}

function assistantParts(content: string | readonly InputRecord[]): ContentPart[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map((part): ContentPart => {
    switch (part.string("type")) {
      case "output_text":
        return { type: "text", text: part.string("text") };
      case "refusal":
        return { type: "refusal", refusal: part.string("refusal") };
      default:
        return fromInputPart(part);
    }
  });
}

/** Text and URL images map to ctxkit's parts; anything else (a file id image, a file) is kept as given. */
function fromInputPart(part: InputRecord): ContentPart {
  const type = part.string("type");
  if (type === "input_text") return { type: "text", text: part.string("text") };
  const imageUrl = part.value.image_url;
  if (type === "input_image" && typeof imageUrl === "string") {
    const detail = part.value.detail === "low" || part.value.detail === "high" ? { detail: part.value.detail } : {};
    return { type: "image_url", image_url: { url: imageUrl, ...detail } };
  }
  return { ...part.value, type };
}
