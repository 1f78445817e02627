// What a `from…` function may do with any input: give valid ctxkit messages, or refuse with AdapterInputError.
import { parseMessage, type Message } from "@ctxkit/core";
import { AdapterInputError } from "@ctxkit/core/kit";
import { describeError, expectThat, preview, PropertyViolation } from "../checks/violation.js";

/**
 * Runs `convert(input)`. Passes when it returns a list of messages core accepts, or throws
 * `AdapterInputError`; throws a `PropertyViolation` for anything else (a `TypeError`, an `undefined` entry,
 * a message `addMessage` would refuse, an error of another class).
 */
export function expectValidOrRefused(convert: (input: never) => readonly Message[], input: unknown): "converted" | "refused" {
  let messages: readonly Message[];
  try {
    messages = convert(input as never);
  } catch (error) {
    expectThat(
      error instanceof AdapterInputError,
      () => `on malformed input ${preview(input)} it threw ${describeError(error)}, not AdapterInputError (code CONTEXT_ADAPTER_INPUT)`,
    );
    return "refused";
  }
  expectThat(Array.isArray(messages), () => `on input ${preview(input)} it returned ${preview(messages)}, not a list of messages`);
  messages.forEach((message, index) => {
    try {
      parseMessage(message);
    } catch (error) {
      throw new PropertyViolation(
        `on input ${preview(input)} it returned message ${index} ${preview(message)}, which core refuses: ${describeError(error)}`,
      );
    }
  });
  return "converted";
}
