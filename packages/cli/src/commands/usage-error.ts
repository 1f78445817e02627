// A command line the command cannot run: it names the option and says what to give instead (exit code 2).
import { ContextError } from "@ctxkit/core";

export class UsageError extends ContextError {
  /** The option or argument at fault, as typed (`--budget`), or "" for the command line as a whole. */
  readonly option: string;

  constructor(option: string, message: string) {
    super("CLI_USAGE", option === "" ? message : `${option}: ${message}`);
    this.option = option;
  }
}
