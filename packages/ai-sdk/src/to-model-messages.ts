// ctxkit messages (a view) to AI SDK `ModelMessage`s, with the system messages apart, as `generateText` wants them.
import { ContextValidationError, toProviderMessages, type ContentPart, type Message, type ToolCall } from "@ctxkit/core";
import type { AssistantModelMessage, ModelMessage, SystemModelMessage, ToolModelMessage, UserModelMessage } from "ai";
import { readHints, readProviderOptions, WRAPPED_PART_TYPE, type ProviderOptions, type ToolResultOutput } from "./ai-sdk-hints.js";
import { splitDataUrl } from "./data-content.js";
import { toFilePart } from "./file-part.js";
import { putImageDetail } from "./image-detail.js";
import { stripReasoning, textOfContent, textOfPart, toolValueFromArguments, unsupportedPartError } from "@ctxkit/core/kit";
import { imageUrlOf, stringField } from "./part-fields.js";
import { forLanguageModel, type ModelIdentity } from "./ai-sdk-provenance.js";

export interface ToModelMessagesOptions {
  /**
   * The model the prompt goes to (a `LanguageModel`, or any `{ provider, modelId }`). Reasoning parts whose recorded
   * provenance (`metadata.provenance`) names another provider family or model are left out, whole; parts with no
   * provenance go as they are. Without it, every part goes as stored.
   */
  targetModel?: ModelIdentity;
}

export interface ModelPrompt {
  /**
   * The view's system and developer messages, for the `system` option: a string when there is one plain
   * system message, else one `SystemModelMessage` each (their `providerOptions`, a cache breakpoint say, kept).
   */
  system?: string | SystemModelMessage[];
  /** Every other message, in view order. */
  messages: ModelMessage[];
}

type UserPart = Exclude<UserModelMessage["content"], string>[number];
type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];
type ToolResultPart = Extract<ToolModelMessage["content"][number], { type: "tool-result" }>;
type OutputContentPart = Extract<ToolResultOutput, { type: "content" }>["value"][number];

/** The AI SDK's reasoning part (`{ type: "reasoning", text }`), not a Responses API reasoning item of the same type. */
const isAiSdkReasoning = (part: ContentPart) => part.type === "reasoning" && typeof part.text === "string";

function withProviderOptions<T extends object>(value: T, source: object): T {
  const providerOptions = readProviderOptions(source);
  return providerOptions === undefined ? value : { ...value, providerOptions };
}

function invalid(index: number, path: string, message: string): ContextValidationError {
  return new ContextValidationError([{ path, message }], { index });
}

function systemTextOf(message: Message, index: number): string {
  const { content } = message;
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content
    .map((part, position) => {
      if (part.type === "text") return textOfPart(part);
      throw unsupportedPartError({ provider: "The AI SDK", index, position, partType: part.type, where: "a system message (text only)" });
    })
    .join("\n");
}

function toUserPart(part: ContentPart, index: number, position: number): UserPart {
  switch (part.type) {
    case "text":
      return withProviderOptions({ type: "text", text: textOfPart(part) }, part);
    case "image_url": {
      const { url, detail } = imageUrlOf(part);
      const mediaType = stringField(part, "mediaType");
      const providerOptions = putImageDetail(readProviderOptions(part), detail);
      return {
        type: "image",
        image: url,
        ...(mediaType === undefined ? {} : { mediaType }),
        ...(providerOptions === undefined ? {} : { providerOptions }),
      };
    }
    case "file": {
      const file = toFilePart(part);
      if (typeof file === "string") throw invalid(index, `content.${position}`, file);
      return file;
    }
    default:
      throw unsupportedPartError({
        provider: "The AI SDK",
        index,
        position,
        partType: part.type,
        where: "a user message (text, image and file parts)",
      });
  }
}

function toAssistantPart(part: ContentPart, index: number, position: number): AssistantPart {
  switch (part.type) {
    case "file": {
      const file = toFilePart(part);
      if (typeof file === "string") throw invalid(index, `content.${position}`, file);
      return file;
    }
    case "refusal":
      // OpenAI's refusal is what the model said: text to any other provider.
      return { type: "text", text: stringField(part, "refusal") ?? "" };
    case "text":
      return withProviderOptions({ type: "text", text: textOfPart(part) }, part);
    case WRAPPED_PART_TYPE:
      return (part as unknown as { part: AssistantPart }).part;
    case "image_url": {
      // The AI SDK has no image part on the assistant side; a file part with an image type is the same thing.
      const { url } = imageUrlOf(part);
      return withProviderOptions(
        { type: "file", data: url, mediaType: stringField(part, "mediaType") ?? splitDataUrl(url)?.mediaType ?? "image/*" },
        part,
      );
    }
    case "reasoning":
    case "tool-call":
    case "tool-result":
      // The AI SDK's own parts travel as they came.
      return part as unknown as AssistantPart;
    default:
      throw unsupportedPartError({
        provider: "The AI SDK",
        index,
        position,
        partType: part.type,
        where: "an assistant message (text, file, reasoning and tool parts)",
      });
  }
}

function toToolCallPart(call: ToolCall): AssistantPart {
  return withProviderOptions(
    { type: "tool-call", toolCallId: call.id, toolName: call.function.name, input: toolValueFromArguments(call.function.arguments) },
    call,
  );
}

function toAssistant(message: Extract<Message, { role: "assistant" }>, index: number): AssistantModelMessage {
  const calls = message.tool_calls ?? [];
  const { content } = message;
  if (calls.length === 0 && typeof content === "string") return withProviderOptions({ role: "assistant", content }, message);
  const parts: AssistantPart[] =
    content === null
      ? []
      : typeof content === "string"
        ? content === ""
          ? []
          : [{ type: "text", text: content }]
        : content.map((part, position) => toAssistantPart(part, index, position));
  const callParts = calls.map(toToolCallPart);
  const positions = readHints(message).callPositions;
  const combined = positions?.length === callParts.length ? interleave(parts, callParts, positions) : [...parts, ...callParts];
  return withProviderOptions({ role: "assistant", content: combined }, message);
}

function interleave(parts: AssistantPart[], calls: AssistantPart[], positions: readonly number[]): AssistantPart[] {
  const total = parts.length + calls.length;
  const isValid =
    new Set(positions).size === positions.length &&
    positions.every((position) => Number.isInteger(position) && position >= 0 && position < total);
  if (!isValid) return [...parts, ...calls];
  const rest = [...parts];
  return Array.from({ length: total }, (_, position) => {
    const call = positions.indexOf(position);
    return call >= 0 ? calls[call]! : rest.shift()!;
  });
}

function toOutputPart(part: ContentPart): OutputContentPart {
  switch (part.type) {
    case "text":
      return withProviderOptions({ type: "text", text: textOfPart(part) }, part);
    case "image_url": {
      const { url } = imageUrlOf(part);
      const data = splitDataUrl(url);
      return withProviderOptions(data === undefined ? { type: "image-url", url } : { type: "image-data", ...data }, part);
    }
    default:
      return part as unknown as OutputContentPart;
  }
}

function parseJson(text: string): { value: NonNullable<unknown> | null } | undefined {
  try {
    return { value: JSON.parse(text) as NonNullable<unknown> | null };
  } catch {
    return undefined;
  }
}

/** The result's `output`: a strategy may have cleared or shortened the content, so a JSON hint is checked, not trusted. */
function toOutput(message: Extract<Message, { role: "tool" }>): ToolResultOutput {
  const hint = readHints(message).output;
  const extra: { providerOptions?: ProviderOptions } = hint?.providerOptions === undefined ? {} : { providerOptions: hint.providerOptions };
  const { content } = message;
  if (typeof content !== "string") {
    // The AI SDK's `content` output has no error flag: an error given as text parts (as Anthropic's tool
    // results arrive) goes as `error-text`, so the provider still sees an error. One with an image keeps its parts.
    if (message.is_error === true && content.every((part) => part.type === "text"))
      return { type: "error-text", value: textOfContent(content), ...extra };
    return { type: "content", value: content.map(toOutputPart) };
  }
  switch (hint?.type) {
    case "error-text":
      return { type: "error-text", value: content, ...extra };
    case "json":
    case "error-json": {
      const parsed = parseJson(content);
      if (parsed !== undefined) return { type: hint.type, value: parsed.value as never, ...extra };
      return { type: hint.type === "json" ? "text" : "error-text", value: content, ...extra };
    }
    case "execution-denied":
      return { type: "execution-denied", ...(hint.reason === undefined ? {} : { reason: hint.reason }), ...extra };
    default:
      return { type: message.is_error === true ? "error-text" : "text", value: content, ...extra };
  }
}

/**
 * Converts a view (or any ctxkit messages) to AI SDK messages. `metadata` never leaves ctxkit; system and
 * developer messages come out as `system`; each tool result takes its `toolName` from the call it answers in
 * the assistant message right before it (ids may repeat across turns, so never from a global lookup).
 *
 * Throws `ContextValidationError` for what the AI SDK cannot take: a tool message that answers no call
 * before it, a user part other than text, image or file, a system part other than text.
 */
export function toModelMessages(view: readonly Message[], options: ToModelMessagesOptions = {}): ModelPrompt {
  const system: SystemModelMessage[] = [];
  const messages: ModelMessage[] = [];
  let openCalls = new Map<string, string>();
  // Reasoning of other providers (Anthropic thinking, a Responses reasoning item) is left out whole.
  stripReasoning(toProviderMessages(forLanguageModel(view, options.targetModel)), { keep: isAiSdkReasoning }).forEach((message, index) => {
    if (message.role !== "tool") openCalls = new Map();
    switch (message.role) {
      case "system":
      case "developer":
        system.push(withProviderOptions({ role: "system", content: systemTextOf(message, index) }, message));
        return;
      case "user": {
        const { content } = message;
        const converted = typeof content === "string" ? content : content.map((part, position) => toUserPart(part, index, position));
        messages.push(withProviderOptions({ role: "user", content: converted }, message));
        return;
      }
      case "assistant":
        for (const call of message.tool_calls ?? []) openCalls.set(call.id, call.function.name);
        messages.push(toAssistant(message, index));
        return;
      case "tool": {
        const toolName = openCalls.get(message.tool_call_id);
        if (toolName === undefined) {
          throw invalid(index, "tool_call_id", `"${message.tool_call_id}" answers no call of the assistant message before it`);
        }
        const part: ToolResultPart = withProviderOptions(
          { type: "tool-result", toolCallId: message.tool_call_id, toolName, output: toOutput(message) },
          message,
        );
        const hints = readHints(message);
        const previous = messages.at(-1);
        if (previous?.role === "tool" && hints.messageProviderOptions === undefined) previous.content.push(part);
        else
          messages.push({
            role: "tool",
            content: [part],
            ...(hints.messageProviderOptions === undefined ? {} : { providerOptions: hints.messageProviderOptions }),
          });
        return;
      }
    }
  });
  const isPlain = system.length === 1 && system[0]!.providerOptions === undefined;
  if (system.length === 0) return { messages };
  return { system: isPlain ? system[0]!.content : system, messages };
}
