// AI SDK `ModelMessage`s to ctxkit messages: every field the AI SDK can carry is kept, so converting back loses nothing.
import type { ContentPart, Message, ToolCall } from "@ctxkit/core";
import type { AssistantModelMessage, ModelMessage, SystemModelMessage, ToolModelMessage, UserModelMessage } from "ai";
import {
  HINTS_KEY,
  WRAPPED_PART_TYPE,
  type AiSdkHints,
  type ProviderOptions,
  type ToolOutputHint,
  type ToolResultOutput,
} from "./ai-sdk-hints.js";
import { checkModelMessage } from "./check-model-message.js";
import { toImageUrl } from "./data-content.js";
import { fromFilePart } from "./file-part.js";
import { takeImageDetail } from "./image-detail.js";
import { acceptMessage, argumentsFromToolInput, readAdapterInput, textOfPart, withProvenance, type Provenance } from "@ctxkit/core/kit";

export interface FromModelMessagesOptions {
  /** The `system` option of the call, which the AI SDK keeps apart from `messages`: it goes first. */
  system?: string | SystemModelMessage | readonly SystemModelMessage[];
  /**
   * Who produced the assistant messages (`{ provider: model.provider, model: response.modelId }`), recorded as their
   * `metadata.provenance` so a later prompt to another model leaves their reasoning out.
   */
  provenance?: Provenance;
}

type UserPart = Exclude<UserModelMessage["content"], string>[number];
type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];
type ToolPart = ToolModelMessage["content"][number];
type OutputContentPart = Extract<ToolResultOutput, { type: "content" }>["value"][number];

const FIX = "Pass messages as the AI SDK types them (ModelMessage, and a SystemModelMessage or string for system); nothing was converted.";

type WithoutUndefined<T> = { [K in keyof T]: Exclude<T[K], undefined> };

/** Copies the keys whose value is defined: the AI SDK writes `providerOptions: undefined`, JSON would not keep it. */
function defined<T extends object>(value: T): WithoutUndefined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as WithoutUndefined<T>;
}

function withProviderOptions<T extends object>(value: T, providerOptions: ProviderOptions | undefined): T {
  return providerOptions === undefined ? value : { ...value, providerOptions };
}

function fromUserPart(part: UserPart): ContentPart {
  switch (part.type) {
    case "text":
      return withProviderOptions({ type: "text", text: part.text }, part.providerOptions);
    case "image": {
      const { detail, providerOptions } = takeImageDetail(part.providerOptions);
      return defined({
        type: "image_url",
        image_url: { url: toImageUrl(part.image, part.mediaType), ...(detail === undefined ? {} : { detail }) },
        mediaType: part.mediaType,
        providerOptions,
      });
    }
    case "file":
      return fromFilePart(part);
    default:
      // A part a later AI SDK adds: kept as it is.
      return defined(part as ContentPart);
  }
}

function fromAssistantPart(part: AssistantPart): ContentPart {
  switch (part.type) {
    case "text":
      return withProviderOptions({ type: "text", text: part.text }, part.providerOptions);
    case "file":
      return fromFilePart(part);
    case "tool-call":
    case "tool-result":
    case "tool-approval-request":
      // Provider-executed calls and their results live inside the assistant message: no tool message answers
      // them, so ctxkit must not see a call there. Wrapped, they travel as one opaque part.
      return { type: WRAPPED_PART_TYPE, part: defined(part) };
    default:
      // Reasoning, and any part a later AI SDK adds, is kept as it is.
      return defined(part as unknown as ContentPart);
  }
}

function toToolCall(part: Extract<AssistantPart, { type: "tool-call" }>): ToolCall {
  const call: ToolCall = {
    id: part.toolCallId,
    type: "function",
    function: { name: part.toolName, arguments: argumentsFromToolInput(part.input) },
  };
  return withProviderOptions(call, part.providerOptions);
}

/** Beside calls, one plain text is a string, as OpenAI writes it; no other part at all is `null`. */
function callContent(parts: ContentPart[]): string | ContentPart[] | null {
  if (parts.length === 0) return null;
  const [only] = parts;
  if (parts.length === 1 && only!.type === "text" && textOfPart(only!) !== "" && Object.keys(only!).length === 2) return textOfPart(only!);
  return parts;
}

function fromAssistant(message: AssistantModelMessage): Message {
  const base = withProviderOptions({ role: "assistant" as const }, message.providerOptions);
  if (typeof message.content === "string") return { ...base, content: message.content };
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const callPositions: number[] = [];
  message.content.forEach((part, position) => {
    if (part.type === "tool-call" && part.providerExecuted !== true) {
      calls.push(toToolCall(part));
      callPositions.push(position);
    } else parts.push(fromAssistantPart(part));
  });
  if (calls.length === 0) return { ...base, content: parts };
  // Calls go after the other parts, as in OpenAI's shape; only an interleaving needs their positions.
  const isInterleaved = callPositions.some((position, index) => position !== parts.length + index);
  const hints: AiSdkHints | undefined = isInterleaved ? { callPositions } : undefined;
  return { ...base, content: callContent(parts), tool_calls: calls, ...(hints === undefined ? {} : { [HINTS_KEY]: hints }) };
}

function fromOutputPart(part: OutputContentPart): ContentPart {
  switch (part.type) {
    case "text":
      return withProviderOptions({ type: "text", text: part.text }, part.providerOptions);
    case "image-data":
      return withProviderOptions(
        { type: "image_url", image_url: { url: `data:${part.mediaType};base64,${part.data}` } },
        part.providerOptions,
      );
    case "image-url":
      return withProviderOptions({ type: "image_url", image_url: { url: part.url } }, part.providerOptions);
    default:
      return defined(part as ContentPart);
  }
}

/** A result's content as ctxkit counts and compacts it, plus what the content alone cannot say. */
function fromOutput(output: ToolResultOutput): { content: string | ContentPart[]; hint: ToolOutputHint | undefined } {
  const providerOptions = "providerOptions" in output ? output.providerOptions : undefined;
  const extra = defined({ providerOptions });
  switch (output.type) {
    case "text":
      return { content: output.value, hint: providerOptions === undefined ? undefined : { type: "text", ...extra } };
    case "error-text":
      return { content: output.value, hint: { type: output.type, ...extra } };
    case "json":
    case "error-json":
      return { content: JSON.stringify(output.value), hint: { type: output.type, ...extra } };
    case "content":
      return { content: output.value.map(fromOutputPart), hint: undefined };
    case "execution-denied":
      return { content: output.reason ?? "Tool execution denied.", hint: defined({ type: output.type, reason: output.reason, ...extra }) };
  }
}

// `checkModelMessage` has refused empty tool messages and parts other than results.
function fromTool(message: ToolModelMessage): Message[] {
  return message.content.flatMap((part: ToolPart, position) => {
    if (part.type !== "tool-result") return [];
    const { content, hint } = fromOutput(part.output);
    const hints: AiSdkHints = defined({
      output: hint,
      messageProviderOptions: position === 0 ? message.providerOptions : undefined,
    });
    const isError = part.output.type === "error-text" || part.output.type === "error-json";
    const result = withProviderOptions(
      { role: "tool" as const, tool_call_id: part.toolCallId, content, ...(isError ? { is_error: true } : {}) },
      part.providerOptions,
    );
    const converted = Object.keys(hints).length === 0 ? result : { ...result, [HINTS_KEY]: hints };
    return [converted as Message];
  });
}

function fromSystem(message: SystemModelMessage): Message {
  return withProviderOptions({ role: "system", content: message.content }, message.providerOptions);
}

function fromMessage(message: ModelMessage): Message[] {
  switch (message.role) {
    case "system":
      return [fromSystem(message)];
    case "user": {
      const content = typeof message.content === "string" ? message.content : message.content.map(fromUserPart);
      return [withProviderOptions({ role: "user", content }, message.providerOptions)];
    }
    case "assistant":
      return [fromAssistant(message)];
    case "tool":
      return fromTool(message);
  }
}

/**
 * Converts AI SDK messages (and the call's `system` option) to ctxkit messages. A tool message becomes one
 * ctxkit tool message per result, tool-call inputs become JSON argument strings, bytes become base64, and
 * `providerOptions` stay on the message, part or call that had them.
 */
export function fromModelMessages(messages: readonly ModelMessage[], options: FromModelMessagesOptions = {}): Message[] {
  const input = readAdapterInput("fromModelMessages", FIX);
  const system = options.system;
  const systemEntries: unknown[] =
    system === undefined
      ? []
      : typeof system === "string"
        ? [{ role: "system", content: system }]
        : Array.isArray(system)
          ? system
          : [system];
  const systemMessages = input.entries(systemEntries, "system").map((entry) => {
    if (entry.string("role") !== "system") entry.fail('expected a system message ({ role: "system", content })', "role");
    checkModelMessage(entry);
    return acceptMessage(input, fromSystem(entry.value as unknown as SystemModelMessage), entry.index!);
  });
  const { provenance } = options;
  const converted = input.entries(messages, "messages").flatMap((entry) => {
    checkModelMessage(entry);
    const fromEntry = fromMessage(entry.value as unknown as ModelMessage);
    const recorded = provenance === undefined ? fromEntry : withProvenance(fromEntry, provenance);
    return recorded.map((message) => acceptMessage(input, message, entry.index!));
  });
  return [...systemMessages, ...converted];
}
