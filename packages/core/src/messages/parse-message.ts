// The gate every message passes to enter a manager: validate, copy, freeze.
import { ContextValidationError, type ErrorIssue } from "../errors.js";
import { deepFreeze } from "./deep-freeze.js";
import { findNonJson } from "./find-non-json.js";
import type { Message } from "./message.js";
import { messageSchemaOnFirstUse } from "./message-schema.js";
import { readOrdinaryMessage } from "./ordinary-message.js";

/**
 * Validates `input` and returns a deep-frozen copy of it. The caller's object is never touched.
 * Throws `ContextValidationError` naming each bad field. A message must be JSON data: what JSON would
 * drop or change (a `Date`, `NaN`, a `Map`) is refused, so every store, in memory or on disk, holds
 * exactly what a restart gives back.
 */
export function parseMessage(input: unknown, index?: number): Message {
  const options = index === undefined ? {} : { index };
  // An ordinary message is read as the schema would return it; anything else, the schema decides and explains.
  let data: unknown = readOrdinaryMessage(input);
  if (data === undefined) {
    const result = messageSchemaOnFirstUse().safeParse(input);
    if (!result.success) throw new ContextValidationError(describeSchemaIssues(result.error.issues), { ...options, cause: result.error });
    data = result.data;
  }
  const problem = findNonJson(data);
  if (problem !== undefined) throw new ContextValidationError([{ path: problem.path, message: problem.problem }], options);
  let copy: Message;
  try {
    // zod copies objects it knows but shares unknown nested values; a structured clone owns them all.
    copy = structuredClone(data) as Message;
  } catch (error) {
    throw new ContextValidationError([{ path: "", message: "a message must be plain data (no functions, symbols or class instances)" }], {
      ...options,
      cause: error,
    });
  }
  return deepFreeze(copy);
}

/** Parses a whole history; the first bad message rejects all of them. */
export function parseMessages(inputs: readonly unknown[]): Message[] {
  if (!Array.isArray(inputs)) {
    throw new ContextValidationError([{ path: "", message: "expected an array of messages" }]);
  }
  return inputs.map((input, index) => parseMessage(input, index));
}

// zod says only "Invalid input" when content matches no allowed shape: say what content may be.
const CONTENT_RULE =
  'expected a string, an array of content parts ({ type: "text", text }, { type: "image_url", image_url: { url } } or another part with a string "type"), or null on an assistant message with tool_calls';

function describeUnionIssue(path: readonly PropertyKey[]): string | undefined {
  return path.at(-1) === "content" ? CONTENT_RULE : undefined;
}

/** zod's issues as ctxkit names them: a dotted path and what is wrong there. */
export function describeSchemaIssues(
  issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string; readonly code?: string }[],
): ErrorIssue[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: (issue.code === "invalid_union" ? describeUnionIssue(issue.path) : undefined) ?? issue.message,
  }));
}
