// The `ctxkit` command: one command, a subcommand per job, each with its help, exit codes and errors a person can act on.
import { createRequire } from "node:module";
import { INSPECT_USAGE, inspectCommand } from "./commands/inspect/inspect-command.js";
import { replayCommand, REPLAY_USAGE } from "./commands/replay/replay-command.js";
import type { CommandIo } from "./commands/terminal.js";
import { TUNE_USAGE, tuneCommand } from "./commands/tune/tune-command.js";
import { UsageError } from "./commands/usage-error.js";

const USAGE = `Usage: ctxkit <command> [options]

Commands:
  replay FILES…   replay recorded agent sessions through ctxkit configurations: cost and retention
  inspect SOURCE  a page of what the context manager did to one session: views, compactions, each message's fate
  tune FILES…     search configurations on recorded sessions: the Pareto frontier and a recommended config

Example:
  ctxkit replay session.jsonl --compare default,truncate

Run ctxkit <command> --help for a command's options.
Exit codes: 0 done, 1 a finding or a failed check, 2 a usage error.`;

const COMMANDS: Record<string, { run: (argv: readonly string[], io: CommandIo) => Promise<number>; usage: string }> = {
  replay: { run: replayCommand, usage: REPLAY_USAGE },
  inspect: { run: inspectCommand, usage: INSPECT_USAGE },
  tune: { run: tuneCommand, usage: TUNE_USAGE },
};

function version(): string {
  return (createRequire(import.meta.url)("../package.json") as { version: string }).version;
}

/** Runs the command line after `ctxkit`; returns the exit code. Ctrl-C aborts `io.signal` and writes nothing. */
export async function main(argv: readonly string[], io?: Partial<CommandIo>): Promise<number> {
  const controller = new AbortController();
  const onInterrupt = (): void => controller.abort(new Error("interrupted"));
  const resolved: CommandIo = {
    stdout: io?.stdout ?? process.stdout,
    stderr: io?.stderr ?? process.stderr,
    env: io?.env ?? process.env,
    cwd: io?.cwd ?? process.cwd(),
    signal: io?.signal ?? controller.signal,
  };
  const [name, ...rest] = argv;
  if (name === undefined) {
    resolved.stderr.write(`ctxkit: name a command\n\n${USAGE}\n`);
    return 2;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    resolved.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (name === "--version" || name === "-v") {
    resolved.stdout.write(`${version()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    resolved.stderr.write(
      `ctxkit: "${name}" is not a command: the commands are ${Object.keys(COMMANDS).join(", ")}\nRun ctxkit --help for usage.\n`,
    );
    return 2;
  }
  if (io?.signal === undefined) process.once("SIGINT", onInterrupt);
  try {
    return await command.run(rest, resolved);
  } catch (error) {
    if (resolved.signal?.aborted === true) {
      resolved.stderr.write(`\nctxkit ${name}: interrupted; nothing was written\n`);
      return 130;
    }
    if (error instanceof UsageError) {
      resolved.stderr.write(`ctxkit ${name}: ${error.message}\nRun ctxkit ${name} --help for usage.\n`);
      return 2;
    }
    const debug = rest.includes("--debug");
    const message = error instanceof Error ? error.message : String(error);
    resolved.stderr.write(
      `ctxkit ${name}: ${message}\n${debug && error instanceof Error ? `${error.stack}\n` : "Run again with --debug for a stack trace.\n"}`,
    );
    return 1;
  } finally {
    process.removeListener("SIGINT", onInterrupt);
  }
}
