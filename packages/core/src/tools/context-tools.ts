// Handlers for the agent's context tools: pin and unpin messages, read back offloaded tool results.
import * as z from "zod/mini";
import { buildOnFirstUse } from "../build-on-first-use.js";
import { ContextError, ContextValidationError } from "../errors.js";
import type { ContentPart, Message } from "../messages/message.js";
import type { ContextManager } from "../protocol.js";
import { PIN_MESSAGE_TOOL, RETRIEVE_TOOL_RESULT_TOOL, UNPIN_MESSAGE_TOOL, type FunctionToolDefinition } from "./tool-definitions.js";
import { PIN_MESSAGE, RETRIEVE_TOOL_RESULT, UNPIN_MESSAGE } from "./tool-names.js";

/** A manager that pins messages by history index, keeping the pins beside the history rather than in it. */
export interface PinCapability {
  pinMessage(index: number): Promise<number>;
  unpinMessage(index: number): Promise<number>;
  pinnedMessages(): Promise<number[]>;
}

export function canPin<T extends ContextManager>(manager: T): manager is T & PinCapability {
  const candidate = manager as Partial<PinCapability>;
  return (
    typeof candidate.pinMessage === "function" &&
    typeof candidate.unpinMessage === "function" &&
    typeof candidate.pinnedMessages === "function"
  );
}

export interface ContextTools {
  /** What to pass as the request's tools (and as `RequestOptions.tools`, so the budget counts them). */
  readonly definitions: readonly FunctionToolDefinition[];
  /** Whether `name` is one of these tools, to route a tool call here. */
  has(name: string): boolean;
  /**
   * Runs one call and returns the text for its tool result message. Bad arguments and unknown ids come
   * back as text starting with `Error:`, for the model to correct; any other failure of the manager
   * (it is closed, say) is thrown.
   */
  handle(name: string, args: string | Readonly<Record<string, unknown>>): Promise<string>;
}

// Built on the first call: most processes never run a context tool.
const indexArguments = buildOnFirstUse(() => z.strictObject({ index: z.int() }));
const retrieveArguments = buildOnFirstUse(() =>
  z.strictObject({
    tool_call_id: z.string().check(z.minLength(1)),
    index: z.optional(z.int().check(z.nonnegative())),
    offset: z._default(z.int().check(z.nonnegative()), 0),
    max_chars: z._default(z.int().check(z.positive()), 20_000),
  }),
);

const PREVIEW_CHARS = 80;

function textOf(content: string | ContentPart[] | null): string {
  if (content === null) return "";
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" && typeof part.text === "string" ? part.text : `[${part.type}]`)).join("\n");
}

function describeMessage(message: Message | undefined): string {
  if (message === undefined) return "";
  const text = textOf(message.content).replaceAll(/\s+/g, " ").trim();
  return ` (${message.role}: ${JSON.stringify(text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text)})`;
}

function parseArguments<T extends z.ZodMiniType>(
  schema: T,
  args: string | Readonly<Record<string, unknown>>,
): { value: z.output<T> } | { error: string } {
  let raw: unknown = args;
  if (typeof args === "string") {
    try {
      raw = JSON.parse(args === "" ? "{}" : args);
    } catch {
      return { error: "Error: the arguments are not valid JSON." };
    }
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { value: parsed.data };
  return { error: `Error: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "arguments"}: ${issue.message}`).join("; ")}` };
}

/**
 * The one result a reference names. Real sessions repeat a call id in a later turn, so an id that
 * names several results needs the index the offload notice gives; it is never guessed.
 */
function findToolResult(
  history: readonly Message[],
  toolCallId: string,
  index: number | undefined,
): { result: Message } | { error: string } {
  const positions: number[] = [];
  history.forEach((message, position) => {
    if (message.role === "tool" && message.tool_call_id === toolCallId) positions.push(position);
  });
  const id = JSON.stringify(toolCallId);
  if (positions.length === 0) return { error: `Error: no tool result with tool_call_id ${id} in this conversation.` };
  if (index !== undefined) {
    if (positions.includes(index)) return { result: history[index]! };
    return { error: `Error: message ${index} is not the result of tool_call_id ${id}; its results are messages ${positions.join(", ")}.` };
  }
  if (positions.length === 1) return { result: history[positions[0]!]! };
  return {
    error: `Error: tool_call_id ${id} names ${positions.length} results (messages ${positions.join(", ")}); call ${RETRIEVE_TOOL_RESULT} again with the index from the offload notice.`,
  };
}

/**
 * The context tools for `manager`: `pin_message` and `unpin_message` when it can pin (a ctxkit
 * manager can), and `retrieve_tool_result`, which reads a result from the history, where an offloaded
 * result is still whole.
 */
export function createContextTools(manager: ContextManager): ContextTools {
  const pinning = canPin(manager) ? manager : undefined;
  const definitions =
    pinning === undefined ? [RETRIEVE_TOOL_RESULT_TOOL] : [PIN_MESSAGE_TOOL, UNPIN_MESSAGE_TOOL, RETRIEVE_TOOL_RESULT_TOOL];
  const names = new Set(definitions.map((definition) => definition.function.name));

  async function pin(args: string | Readonly<Record<string, unknown>>, isPinned: boolean): Promise<string> {
    const parsed = parseArguments(indexArguments(), args);
    if ("error" in parsed) return parsed.error;
    let index: number;
    try {
      index = await (isPinned ? pinning!.pinMessage(parsed.value.index) : pinning!.unpinMessage(parsed.value.index));
    } catch (error) {
      if (error instanceof ContextError && error.code === "CONTEXT_VALIDATION") return `Error: ${error.message}`;
      throw error;
    }
    const message = (await manager.getMessages())[index];
    return `${isPinned ? "Pinned" : "Unpinned"} message ${index}${describeMessage(message)}.`;
  }

  async function retrieve(args: string | Readonly<Record<string, unknown>>): Promise<string> {
    const parsed = parseArguments(retrieveArguments(), args);
    if ("error" in parsed) return parsed.error;
    const { tool_call_id: toolCallId, index, offset, max_chars: maxChars } = parsed.value;
    const found = findToolResult(await manager.getMessages(), toolCallId, index);
    if ("error" in found) return found.error;
    const text = textOf(found.result.content);
    const part = text.slice(offset, offset + maxChars);
    const rest = text.length - offset - part.length;
    return rest > 0 ? `${part}\n[${rest} more characters: call ${RETRIEVE_TOOL_RESULT} again with offset ${offset + part.length}]` : part;
  }

  return {
    definitions,
    has: (name) => names.has(name),
    handle(name, args) {
      if (!names.has(name))
        return Promise.reject(
          new ContextValidationError([
            { path: "name", message: `"${name}" is not a context tool; expected one of ${[...names].join(", ")}` },
          ]),
        );
      if (name === PIN_MESSAGE) return pin(args, true);
      if (name === UNPIN_MESSAGE) return pin(args, false);
      return retrieve(args);
    },
  };
}
