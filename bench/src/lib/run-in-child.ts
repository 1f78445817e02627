// Runs a TypeScript module in a child process, collecting what it reports, and kills it at a time limit.
import { type Serializable, fork } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface ChildOptions<Report> {
  readonly timeLimitMs: number;
  /** The time limit starts at the first report this accepts (say, once the child has loaded); by default at spawn. */
  readonly startsClock?: (report: Report) => boolean;
}

export interface ChildResult<Report> {
  readonly reports: readonly Report[];
  readonly timedOut: boolean;
}

/** How long a child may take to start its clock before it is given up on. */
const START_LIMIT_MS = 60_000;
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

/** The module gets `request` as its first IPC message and reports with `process.send`; it exits when done. */
export function runInChild<Report>(module: URL, request: Serializable, options: ChildOptions<Report>): Promise<ChildResult<Report>> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(module), [], {
      execArgv: ["--import", tsxLoader],
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const reports: Report[] = [];
    let timedOut = false;
    let clock: NodeJS.Timeout | undefined;
    const kill = (): void => {
      timedOut = true;
      child.kill("SIGKILL");
    };
    const startGuard = setTimeout(kill, options.startsClock === undefined ? options.timeLimitMs : START_LIMIT_MS);
    child.on("message", (message) => {
      const report = message as Report;
      reports.push(report);
      if (clock === undefined && options.startsClock?.(report) === true) {
        clearTimeout(startGuard);
        clock = setTimeout(kill, options.timeLimitMs);
      }
    });
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      clearTimeout(startGuard);
      clearTimeout(clock);
      if (timedOut || code === 0) resolve({ reports, timedOut });
      else reject(new Error(`${fileURLToPath(module)} exited with ${code ?? signal}`));
    });
    child.send(request);
  });
}
