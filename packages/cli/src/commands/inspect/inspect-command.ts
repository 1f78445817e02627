// `ctxkit inspect SOURCE`: what the context manager did to a session, as a page served on 127.0.0.1 or written with --html.
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import { FORMAT_NAMES } from "../../formats/detect-format.js";
import { readSession } from "../../formats/read-session.js";
import { createProgress, formatElapsed } from "../progress.js";
import { PRESET_NAMES, resolveConfigurations } from "../replay/configurations.js";
import { DEFAULT_BUDGETS } from "../replay/replay-arguments.js";
import type { CommandIo } from "../terminal.js";
import { UsageError } from "../usage-error.js";
import { writeFileAtomically } from "../write-file-atomically.js";
import { type InspectTarget, inspectStored, inspectTranscript } from "./build-inspect-data.js";
import { type InspectArguments, parseInspectArguments } from "./inspect-arguments.js";
import type { InspectData } from "./inspect-data.js";
import { renderInspectPage } from "./inspect-page.js";
import { servePage, untilStopped } from "./serve-page.js";
import { displayUrl, readStoredSession, type StoredSource } from "./stored-session.js";

export const INSPECT_USAGE = `Usage: ctxkit inspect SOURCE [options]
       ctxkit inspect --url URL --session ID [options]

Shows what the context manager did to a session, on a page: each model call's view by category against the
budget, where the cached prefix ended, every compaction's receipt with the view before and after it, and each
message's form and the reason for it, searchable. SOURCE is a @ctxkit/context-persistent journal
(<session>.jsonl) or a transcript in any format ctxkit replay reads, which is replayed through the
configuration; --url and --session open a PostgreSQL or Redis session. The page is served on 127.0.0.1 at a
port the system picks (its address is printed; Ctrl-C stops it), or written to one self-contained file.

Example:
  ctxkit inspect ~/.claude/projects/my-app/session.jsonl --preset truncate --budget 32000
  ctxkit inspect --url postgres://localhost/agents --session 7f3c2a --html session.html

Options:
  --url URL            a postgres:// or redis:// server holding the session (with --session)
  --session ID         the session's id on that server
  --preset NAME        a preset: ${PRESET_NAMES.join(", ")} (default: default)
  --config FILE        a createContextManager config (JSON); for a transcript, a mount plan too
  --budget N           the token budget (default: a transcript ${DEFAULT_BUDGETS[0]}; a stored session its newest
                       receipt's, else its manager's)
  --format NAME        the transcript's format, when it is not recognized:
                       ${FORMAT_NAMES.join(", ")}
  --html FILE          write the page to FILE (styles, script and data inlined; nothing fetched) instead of serving it
  --json FILE|-        write the page's data as JSON (- prints it) instead of serving the page
  --debug              show stack traces
  -h, --help           show this help

Exit codes: 0 done (or the server stopped), 1 the session could not be read, 2 a usage error.`;

/** Whether the file is a @ctxkit/context-persistent journal: its first record is `{ "v": 1, "type": "add" | "state" | "header" }`. */
async function isJournal(file: string): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, "r");
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const line = buffer.subarray(0, bytesRead).toString("utf8").split("\n")[0] ?? "";
    return /^\{"v":\d+,"type":"(add|state|header)"/.test(line.trim());
  } catch {
    // Unreadable here: the reader that opens it next says why, naming the file.
    return false;
  } finally {
    await handle?.close();
  }
}

async function buildData(options: InspectArguments, io: CommandIo): Promise<InspectData> {
  const [configuration] = await resolveConfigurations([options.configuration], io.cwd);
  if (configuration === undefined) throw new UsageError("--preset", "name a configuration");
  const progress = createProgress(io.stderr);
  const started = Date.now();
  const target = (budget: number, total: number): InspectTarget => ({
    configuration: configuration.label,
    create: configuration.create,
    budget,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    onMessage: (added) =>
      progress.update(
        `inspect: ${added.toLocaleString("en")}/${total.toLocaleString("en")} messages · ${formatElapsed(Date.now() - started)}`,
      ),
  });
  try {
    const file = options.source === undefined ? undefined : resolve(io.cwd, options.source);
    if (file !== undefined && (options.format !== undefined || !(await isJournal(file)))) {
      const session = await readSession(file, options.format === undefined ? {} : { format: options.format });
      const budget = options.budget ?? DEFAULT_BUDGETS[0]!;
      return await inspectTranscript(
        { label: options.source!, format: session.format, messages: session.messages },
        target(budget, session.messages.length),
      );
    }
    if (configuration.config === undefined)
      throw new UsageError(
        "--config",
        `${configuration.label} is a mount plan, which names its own store: give a createContextManager config or a preset`,
      );
    const source: StoredSource =
      file !== undefined
        ? { kind: "journal", file }
        : { kind: options.url!.startsWith("redis") ? "redis" : "postgres", url: options.url!, session: options.session! };
    const session = await readStoredSession(source, configuration.config, options.budget);
    const label = source.kind === "journal" ? options.source! : `${displayUrl(source.url)} session ${source.session}`;
    if (session.history.length === 0)
      throw source.kind === "journal"
        ? new UsageError("SOURCE", `${label} holds no messages: give the journal of a session that has some`)
        : new UsageError("--session", `${label} holds no messages: check the session id (and that --url names the right server)`);
    const budget = session.budget ?? DEFAULT_BUDGETS[0]!;
    return await inspectStored({ kind: source.kind, label, session }, target(budget, session.history.length));
  } finally {
    progress.done();
  }
}

export async function inspectCommand(argv: readonly string[], io: CommandIo): Promise<number> {
  const options = parseInspectArguments(argv);
  if (options.help) {
    io.stdout.write(`${INSPECT_USAGE}\n`);
    return 0;
  }
  const data = await buildData(options, io);
  io.signal?.throwIfAborted();
  const html = renderInspectPage(data);
  if (options.json !== undefined && options.json !== "-")
    await writeFileAtomically(resolve(io.cwd, options.json), `${JSON.stringify(data, null, 2)}\n`);
  if (options.html !== undefined) {
    const target = resolve(io.cwd, options.html);
    await writeFileAtomically(target, html);
    if (options.json !== "-") io.stdout.write(`${target}\n`);
  }
  if (options.json === "-") io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  if (options.html !== undefined || options.json !== undefined) return 0;
  const served = await servePage(html);
  io.stdout.write(`${served.url}\n`);
  io.stderr.write("inspect: serving on 127.0.0.1 only; Ctrl-C stops it\n");
  await untilStopped(io.signal);
  await served.close();
  return 0;
}
