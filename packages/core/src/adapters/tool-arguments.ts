// ONE policy for tool-call arguments a provider cannot take parsed.
//
// ctxkit keeps a call's arguments as the model wrote them: a string, which may be malformed JSON (a model cut
// off mid-call). Anthropic's `tool_use.input` takes a JSON object, the AI SDK's `input` any JSON value.
// Arguments the provider cannot take parsed (text that is not JSON; for Anthropic, also JSON that is not an
// object) are neither refused nor repaired: they travel as `{ "ctxkit_unparsed_arguments": "<the text>" }`,
// which every provider accepts, which shows the model exactly what it wrote, and which reads back to the same
// string. Any other input reads back as `JSON.stringify(input)`.

/** The key under which arguments that are not a JSON object travel to a provider that takes objects. */
export const UNPARSED_ARGUMENTS_KEY = "ctxkit_unparsed_arguments";

export type ToolInput = Record<string, unknown>;

function isPlainObject(value: unknown): value is ToolInput {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A call's arguments as any JSON value (the AI SDK's `input`), or unparsed when they are not JSON. */
export function toolValueFromArguments(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isUnparsedArguments(parsed)) return parsed;
  } catch {
    // Not JSON: kept as text below.
  }
  return { [UNPARSED_ARGUMENTS_KEY]: text };
}

/** A call's arguments as the JSON object a provider takes (Anthropic's `input`), or unparsed when they are not one. */
export function toolInputFromArguments(text: string): ToolInput {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isPlainObject(parsed) && !isUnparsedArguments(parsed)) return parsed;
  } catch {
    // Not JSON: kept as text below.
  }
  return { [UNPARSED_ARGUMENTS_KEY]: text };
}

/** A provider's tool input as ctxkit's argument string: the inverse of `toolInputFromArguments`. */
export function argumentsFromToolInput(input: unknown): string {
  if (isUnparsedArguments(input)) return input[UNPARSED_ARGUMENTS_KEY] as string;
  if (input === undefined) return "{}";
  return JSON.stringify(input) ?? "{}";
}

function isUnparsedArguments(value: unknown): value is ToolInput {
  return isPlainObject(value) && Object.keys(value).length === 1 && typeof value[UNPARSED_ARGUMENTS_KEY] === "string";
}
