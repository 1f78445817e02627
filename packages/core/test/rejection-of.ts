// The ContextValidationError that parseMessage throws for an input, for tests that read its issues.
import { ContextValidationError } from "../src/errors.js";
import { parseMessage } from "../src/messages/parse-message.js";

export function rejectionOf(input: unknown): ContextValidationError {
  try {
    parseMessage(input);
  } catch (error) {
    if (error instanceof ContextValidationError) return error;
    throw error;
  }
  throw new Error("expected parseMessage to reject");
}
