// Every message a reader builds is checked as the manager will check it, so a bad record is named by its line here.
import { ContextValidationError, type Message, parseMessage } from "@ctxkit/core";
import { SessionReadError } from "./session-read-error.js";

const FIX = "Check that the file is the agent's own log, unedited, or pass --format with the format it is in";

/** `candidate` as a message, or a `SessionReadError` naming the file, the line and the field. */
export function acceptRecord(candidate: unknown, file: string, line: number): Message {
  try {
    return parseMessage(candidate);
  } catch (error) {
    if (!(error instanceof ContextValidationError)) throw error;
    const issues = error.issues.map((issue) => `${issue.path || "(root)"}: ${issue.message}`).join("; ");
    throw new SessionReadError(file, line, `not a message (${issues.replace(/\s*\n\s*/g, " ")})`, FIX, { cause: error });
  }
}

/** A problem with a record's shape: what the field should have held. */
export function recordError(file: string, line: number, problem: string): SessionReadError {
  return new SessionReadError(file, line, problem, FIX);
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
