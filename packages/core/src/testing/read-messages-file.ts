// Loads a recorded session: one JSON message per line, as exported by many agent tools.
import { readFileSync } from "node:fs";
import type { Message } from "../messages/message.js";
import { parseMessage } from "../messages/parse-message.js";

/** Reads a JSONL file of messages; a bad line throws `ContextValidationError` naming its index. */
export function readMessagesFile(path: string): Message[] {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0);
  return lines.map((line, index) => parseMessage(JSON.parse(line), index));
}
