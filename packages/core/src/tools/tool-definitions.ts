// The agent's context tools as OpenAI function tools: plain JSON an adapter passes to any provider.
import { PIN_MESSAGE, RETRIEVE_TOOL_RESULT, UNPIN_MESSAGE } from "./tool-names.js";

export interface FunctionToolDefinition {
  readonly type: "function";
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: Readonly<Record<string, unknown>>;
  };
}

const indexParameters = {
  type: "object",
  properties: {
    index: {
      type: "integer",
      description: "The message's position in the conversation: 0 is the first message, -1 the latest, -2 the one before it.",
    },
  },
  required: ["index"],
  additionalProperties: false,
} as const;

export const PIN_MESSAGE_TOOL: FunctionToolDefinition = deepFreeze({
  type: "function",
  function: {
    name: PIN_MESSAGE,
    description:
      "Keep a message in your context for the rest of the session: it is never dropped or shortened when the conversation is compacted. Use it for instructions, decisions or facts you must not lose.",
    parameters: indexParameters,
  },
});

export const UNPIN_MESSAGE_TOOL: FunctionToolDefinition = deepFreeze({
  type: "function",
  function: {
    name: UNPIN_MESSAGE,
    description: "Release a message pinned with pin_message, so it may be compacted like any other.",
    parameters: indexParameters,
  },
});

export const RETRIEVE_TOOL_RESULT_TOOL: FunctionToolDefinition = deepFreeze({
  type: "function",
  function: {
    name: RETRIEVE_TOOL_RESULT,
    description: 'Read the full text of a tool result that was offloaded from your context (shown as "[tool result offloaded: …]").',
    parameters: {
      type: "object",
      properties: {
        tool_call_id: { type: "string", description: "The tool_call_id named in the offload notice." },
        index: {
          type: "integer",
          description: "The index named in the offload notice: which result, when a tool_call_id was used more than once.",
        },
        offset: { type: "integer", description: "Character to start from, for a result longer than max_chars. Default 0." },
        max_chars: { type: "integer", description: "The most characters to return. Default 20000." },
      },
      required: ["tool_call_id"],
      additionalProperties: false,
    },
  },
});

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
