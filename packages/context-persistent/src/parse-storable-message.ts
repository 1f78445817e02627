// The gate for a persistent manager: a valid message (core's schema) that JSON can also carry unchanged.
import { ContextValidationError, parseMessage, type Message } from "@ctxkit/core";
import { findNonJson } from "./find-non-json.js";

/**
 * Returns core's deep-frozen copy of `input`, or throws `ContextValidationError`. A message that JSON
 * would change (a `Date`, `NaN`, a `Map`) is refused here, because after a restart it would come back
 * different from what the live session held.
 */
export function parseStorableMessage(input: unknown, index?: number): Message {
  const message = parseMessage(input, index);
  const problem = findNonJson(message);
  if (problem !== undefined) {
    throw new ContextValidationError([{ path: problem.path, message: problem.problem }], index === undefined ? {} : { index });
  }
  return message;
}

/** Parses a whole history; the first bad message rejects all of them. */
export function parseStorableMessages(inputs: readonly unknown[]): Message[] {
  if (!Array.isArray(inputs)) {
    throw new ContextValidationError([{ path: "", message: "expected an array of messages" }]);
  }
  return inputs.map((input, index) => parseStorableMessage(input, index));
}
