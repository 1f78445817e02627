// The one error a session reader throws: it names the file and line, what is wrong there, and what to do.
import { ContextError } from "@ctxkit/core";

export class SessionReadError extends ContextError {
  readonly file: string;
  /** 1-based; 0 when the problem is the whole file (it cannot be read, or no format fits it). */
  readonly line: number;
  readonly problem: string;

  constructor(file: string, line: number, problem: string, fix: string, options?: { cause?: unknown }) {
    super("CLI_SESSION_READ", `${line > 0 ? `${file}:${line}` : file}: ${problem}. ${fix}`, options);
    this.file = file;
    this.line = line;
    this.problem = problem;
  }
}
