// Loads a recorded session: one JSON message per line, as exported by many agent tools.
import { readFileSync } from "node:fs";
import { ContextValidationError } from "../errors.js";
import type { Message } from "../messages/message.js";
import { parseMessage } from "../messages/parse-message.js";

/**
 * Reads a JSONL file of messages, skipping blank lines. A line that is not JSON, or not a message, throws
 * `ContextValidationError` naming the entry's index (blank lines not counted); one that is not JSON also
 * names its line in the file.
 */
export function readMessagesFile(path: string): Message[] {
  const messages: Message[] = [];
  for (const [position, line] of readFileSync(path, "utf8").split("\n").entries()) {
    if (line.trim().length === 0) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const reason = `line ${position + 1} of ${path} is not valid JSON (${(error as Error).message}); fix or remove the line`;
      throw new ContextValidationError([{ path: "", message: reason }], { index: messages.length, cause: error });
    }
    messages.push(parseMessage(value, messages.length));
  }
  return messages;
}
