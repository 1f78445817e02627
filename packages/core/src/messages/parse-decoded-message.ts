// The gate for a message read back from storage: the same rules as `parseMessage`, without the copy a caller's object needs.
import { ContextValidationError } from "../errors.js";
import { deepFreeze } from "./deep-freeze.js";
import { findNonJson } from "./find-non-json.js";
import type { Message } from "./message.js";
import { messageSchemaOnFirstUse } from "./message-schema.js";
import { describeSchemaIssues } from "./parse-message.js";

/**
 * Validates `value`, freshly decoded from JSON (so nobody else holds it), by exactly the rules of
 * `parseMessage`, and returns it deep-frozen. A store calls this for every message it loads, so what a
 * file holds can never be something `addMessage` would have refused. Throws `ContextValidationError`.
 */
export function parseDecodedMessage(value: unknown): Message {
  const result = messageSchemaOnFirstUse().safeParse(value);
  if (!result.success) throw new ContextValidationError(describeSchemaIssues(result.error.issues), { cause: result.error });
  const problem = findNonJson(value);
  if (problem !== undefined) throw new ContextValidationError([{ path: problem.path, message: problem.problem }]);
  // The schema has no defaults or transforms, so the value itself is the message, with its keys in their stored order.
  return deepFreeze(value as Message);
}
