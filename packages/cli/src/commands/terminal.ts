// What a command writes to: the two streams, whether each is a terminal, and whether colour is wanted there.

export interface CommandStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

export interface CommandIo {
  readonly stdout: CommandStream;
  readonly stderr: CommandStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where relative paths are resolved. */
  readonly cwd: string;
  /** Aborted by Ctrl-C: the command stops between messages and writes nothing. */
  readonly signal?: AbortSignal;
}

/** Colour only on a terminal, and never with NO_COLOR set to anything (https://no-color.org). */
export function wantsColour(stream: CommandStream, env: CommandIo["env"]): boolean {
  return stream.isTTY === true && (env["NO_COLOR"] ?? "") === "" && env["TERM"] !== "dumb";
}

export const bold = (text: string, colour: boolean): string => (colour ? `\u001b[1m${text}\u001b[22m` : text);
export const red = (text: string, colour: boolean): string => (colour ? `\u001b[31m${text}\u001b[39m` : text);
