// context-persistent's journal: append rates per durability mode, resume time, and the I/O of a request.
import type { Cell, BenchmarkOptions, Table } from "../lib/benchmark.js";
import { formatDuration } from "../lib/measure.js";
import { measureAppendRates, type AppendCase } from "../persistent/append-rates.js";
import { measureRequests } from "../persistent/request-io.js";
import { measureResume } from "../persistent/resume-cost.js";
import { generateSession } from "../sessions/generate-session.js";

export const name = "persistent";
export const description = "context-persistent's journal against raw fs: appends per durability mode, resume, request I/O";

const rate = (perSecond: number): string => Math.round(perSecond).toLocaleString("en");
const ratio = (value: number): string => `${value.toFixed(2)}×`;
const count = (value: number | undefined): Cell => (value === undefined ? "n/a" : value);

export async function run({ quick }: BenchmarkOptions): Promise<Table[]> {
  const resumeSize = quick ? 10_000 : 100_000;
  const requestSize = quick ? 2_000 : 10_000;
  const session = generateSession({ messages: resumeSize + 200, meanOutputChars: 800 });
  const appendMessages = session.slice(0, 2_000);
  const scale = quick ? 1 : 3;
  const cases: AppendCase[] = [
    { durability: "always", inFlight: 1, appends: 200 * scale },
    { durability: "always", inFlight: 16, appends: 200 * scale },
    { durability: "batch", inFlight: 1, appends: 200 * scale },
    { durability: "batch", inFlight: 16, appends: 2_000 * scale },
    { durability: "none", inFlight: 1, appends: 2_000 * scale },
    { durability: "none", inFlight: 16, appends: 4_000 * scale },
  ];
  const rates = await measureAppendRates(cases, appendMessages, quick ? 3 : 5);
  const resume = await measureResume(session.slice(0, resumeSize), quick ? 3 : 5);
  const requests = await measureRequests(session.slice(0, requestSize), session.slice(resumeSize), quick ? 50 : 200);

  return [
    {
      title: "Appends per second, by durability mode, against a raw fs append loop with the same fsync policy",
      columns: ["mode", "adds in flight", "appends", "context-persistent /s", "raw fs /s", "ratio"],
      rows: rates.map((entry) => [
        entry.durability,
        entry.inFlight,
        entry.appends,
        rate(entry.ctxkitPerSecond),
        rate(entry.rawPerSecond),
        ratio(entry.ctxkitPerSecond / entry.rawPerSecond),
      ]),
      notes: [
        "Generated agent messages (tool outputs ~800 characters). Each caller awaits its add before the next, as an agent loop does.",
        "raw fs: the same records, JSON.stringify'd, written through a FileHandle: under `always` one write and one fsync per record;",
        "under `batch` one write and one fsync per group of `adds in flight` records, the best group commit can do; under `none` no fsync.",
        "context-persistent adds validation (zod), a deep-frozen copy, the in-memory history and, under batch, forming the groups itself.",
      ],
    },
    {
      title: `Resuming a ${resume.messages.toLocaleString("en")}-message journal (${(resume.bytes / 1e6).toFixed(1)} MB)`,
      columns: ["measure", "median", "runs"],
      rows: [
        [
          "createPersistentContext: lock, read, check, freeze, load",
          formatDuration(resume.resume.medianMs),
          resume.resume.samplesMs.length,
        ],
        [
          "plain readFile + split + JSON.parse of every line, kept in an array",
          formatDuration(resume.plainParse.medianMs),
          resume.plainParse.samplesMs.length,
        ],
        ["ratio", ratio(resume.resume.medianMs / resume.plainParse.medianMs), ""],
      ],
      notes: [
        "The file is read once, at open; every message is validated as addMessage validates it (a line it would refuse stops the open) and deep-frozen.",
        "The two alternate, one of each per round after an untimed first round; most of the remaining gap is garbage collection of what both keep.",
      ],
    },
    {
      title: `A request on a resumed ${requestSize.toLocaleString("en")}-message session, after one new message, no compaction`,
      columns: ["manager", "first request", "median request", "file system calls", "store calls"],
      rows: requests.map((entry) => [
        entry.manager,
        formatDuration(entry.firstRequestMs),
        formatDuration(entry.medianRequestMs),
        entry.fileCalls,
        count(entry.storeCalls),
      ]),
      notes: [
        "File system calls: every call into fs, fs/promises or a FileHandle in the process during all the timed requests; store calls: those that reached the journal.",
        "Before each request one message is added (its append is not counted) and a scratch file is fsynced, for both managers alike; they take turns.",
        "The estimate counter, so the figure is the manager's own work. The first request counts every message once, the later ones only what was added.",
      ],
    },
  ];
}
