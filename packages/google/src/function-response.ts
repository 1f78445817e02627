// A function response's `response` object as a tool message's content, and back, the same both ways.
import type { ContentPart, ToolMessage } from "@ctxkit/core";
import { textOfContent } from "@ctxkit/core/kit";

/** Parts as a message's content: one text part as a string, so a plain answer reads as one. */
export function contentOfParts(parts: ContentPart[]): string | ContentPart[] {
  const [only] = parts;
  return parts.length === 1 && only?.type === "text" && typeof only.text === "string" ? only.text : parts;
}

const isOnly = (value: Record<string, unknown>, key: string) => Object.keys(value).length === 1 && typeof value[key] === "string";

/**
 * Gemini's convention: `{ output }` for a result, `{ error }` for a failure. They become the tool message's text
 * (`is_error` for an error); any other object becomes one text part holding its compact JSON, which
 * `toFunctionResponse` parses back: a string content always travels as `{ output }`.
 */
export function toolContentOf(response: Record<string, unknown>): Pick<ToolMessage, "content" | "is_error"> {
  if (isOnly(response, "output")) return { content: response["output"] as string };
  if (isOnly(response, "error")) return { content: response["error"] as string, is_error: true };
  return { content: [{ type: "text", text: JSON.stringify(response) }] };
}

function parsedObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    // Only the exact text `toolContentOf` writes: other JSON a tool returned stays its output, as written.
    return JSON.stringify(value) === text ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A tool message's content as Gemini's `response` object (the inverse of `toolContentOf`). */
export function toFunctionResponse(message: ToolMessage): Record<string, unknown> {
  const text = textOfContent(message.content);
  if (message.is_error === true) return { error: text };
  if (Array.isArray(message.content) && message.content.length === 1 && message.content[0]?.type === "text") {
    const parsed = parsedObject(text);
    if (parsed !== undefined && !isOnly(parsed, "output") && !isOnly(parsed, "error")) return parsed;
  }
  return { output: text };
}
