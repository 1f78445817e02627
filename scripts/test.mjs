// `pnpm test`: builds the packages, starts the PostgreSQL and Redis test servers that are not running yet (and
// only those), runs vitest with the arguments given, stops the servers it started (also on failure and Ctrl-C),
// and ends with every skipped test's reason, grouped, and with anything the tests left in their temporary folder.
// It hands the tests the Chromium path it found (CTXKIT_CHROMIUM_PATH) and installs nothing. Exits with vitest's code.
// A server is known, and left alone, when its URL variable is set or .tmp/<name>.env names one that answers.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { formatSkipSummary, groupSkips } from "./skip-summary.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const SERVERS = [
  { name: "PostgreSQL", variable: "CTXKIT_POSTGRES_URL", envFile: ".tmp/postgres.env", script: "scripts/postgres.sh", defaultPort: 5432 },
  { name: "Redis", variable: "CTXKIT_REDIS_URL", envFile: ".tmp/redis.env", script: "scripts/redis.sh", defaultPort: 6379 },
];

/** The URL a `NAME=value` env file gives for `variable`, or undefined. */
export function readEnvFile(path, variable) {
  if (!existsSync(path)) return undefined;
  const line = readFileSync(path, "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${variable}=`));
  return line?.slice(variable.length + 1).trim() || undefined;
}

/** Whether something accepts a TCP connection at the URL's host and port within `timeoutMs`. */
export function isListening(url, defaultPort, timeoutMs = 1_000) {
  let host;
  let port;
  try {
    const parsed = new URL(url);
    host = parsed.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1";
    port = Number(parsed.port || defaultPort);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((resolvePromise) => {
    const socket = connect({ host, port });
    const finish = (answer) => {
      socket.destroy();
      resolvePromise(answer);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}

/**
 * How the tests will find `server` without this script: `{ source: "environment", url }` when its variable is
 * set (used as given), `{ source: "file", url }` when its env file names a server that answers, else undefined.
 */
export async function findKnownServer(server, { env = process.env, root = ROOT } = {}) {
  const fromEnvironment = env[server.variable];
  if (fromEnvironment) return { source: "environment", url: fromEnvironment };
  const fromFile = readEnvFile(join(root, server.envFile), server.variable);
  if (fromFile !== undefined && (await isListening(fromFile, server.defaultPort))) return { source: "file", url: fromFile };
  return undefined;
}

/**
 * The browser the browser tests drive: `CTXKIT_CHROMIUM_PATH` when set, else Debian's package's path; `found` says
 * whether it is there. Nothing is installed here: `.ci/run` installs it (scripts/chromium.sh), as a person may.
 */
export function findChromium({ env = process.env, exists = existsSync } = {}) {
  const path = env.CTXKIT_CHROMIUM_PATH || "/usr/bin/chromium";
  return { path, found: exists(path) };
}

/** Runs a command with the terminal's streams; resolves with its exit code (128 + signal number when killed). */
function run(command, args, { onChild, env = {} } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      stdio: "inherit",
      // The repository's own binaries (turbo, vitest) first, as a pnpm script has them.
      env: { ...process.env, ...env, PATH: [join(ROOT, "node_modules", ".bin"), process.env.PATH].join(delimiter) },
    });
    onChild?.(child);
    child.once("error", (error) => {
      console.error(`test: could not run ${command}: ${error.message}`);
      resolvePromise(1);
    });
    child.once("exit", (code, signal) => resolvePromise(code ?? (signal === "SIGINT" ? 130 : 143)));
  });
}

function log(line) {
  console.error(`test: ${line}`);
}

async function main() {
  // `pnpm test -- file` hands the separator on; vitest takes the files and options without it.
  const passed = process.argv.slice(2).filter((argument, index) => !(index === 0 && argument === "--"));
  const started = [];
  const notice = [];
  let interrupted = false;
  let current;
  const onSignal = (signal) => {
    interrupted = true;
    // Ctrl-C reaches the child from the terminal too; a signal sent to this process alone is passed on.
    current?.kill(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  const reportFolder = mkdtempSync(join(tmpdir(), "ctxkit-test-report-"));
  const reportFile = join(reportFolder, "skipped.json");
  // The tests' own temporary folder (TMPDIR), open to all as /tmp is (a test server's user makes folders in it):
  // what is still in it after the run is what a test forgot to remove.
  const scratch = mkdtempSync(join(tmpdir(), "ctxkit-test-tmp-"));
  chmodSync(scratch, 0o1777);
  let exitCode = 1;
  try {
    exitCode = await run("turbo", ["run", "build", "--filter=./packages/*", "--output-logs=errors-only"], {
      onChild: (child) => (current = child),
    });
    if (exitCode !== 0 || interrupted) return;

    for (const server of SERVERS) {
      if (interrupted) return;
      const known = await findKnownServer(server);
      if (known !== undefined) {
        log(`${server.name}: using ${known.source === "environment" ? `$${server.variable}` : `the server in ${server.envFile}`}`);
        continue;
      }
      log(`${server.name}: none running; starting one (bash ${server.script} start)`);
      const code = await run("bash", [server.script, "start"], { onChild: (child) => (current = child) });
      // Recorded before the check: a start cut short may still have left a server to stop.
      started.push(server);
      if (code !== 0) {
        notice.push(
          `${server.name} could not be started (bash ${server.script} start exited ${code}, see above): its tests skip, or fail when CI is set.`,
        );
      }
    }
    if (interrupted) return;

    const chromium = findChromium();
    if (chromium.found) log(`Chromium: ${chromium.path}`);
    else notice.push(`No Chromium at ${chromium.path}: the browser tests skipped (bash scripts/chromium.sh install installs it).`);

    const reporters = passed.some((argument) => argument.startsWith("--reporter")) ? [] : ["--reporter=default"];
    exitCode = await run("vitest", ["run", ...reporters, "--reporter=./scripts/skip-reporter.mjs", ...passed], {
      onChild: (child) => (current = child),
      env: { TMPDIR: scratch, CTXKIT_SKIP_REPORT: reportFile, CTXKIT_CHROMIUM_PATH: chromium.path },
    });
    // tsx keeps its compile cache in the temporary folder under a fixed name, by design: not something a test made.
    const left = readdirSync(scratch).filter((name) => !/^tsx-\d+$/.test(name));
    if (left.length > 0) {
      notice.push(
        `The tests left ${left.length} file${left.length === 1 ? "" : "s"} in their temporary folder: ${left.slice(0, 10).join(", ")}${left.length > 10 ? ", …" : ""}. A test removes what it makes (afterEach, afterAll or onTestFinished).`,
      );
    }
  } finally {
    for (const server of started.reverse()) {
      const code = await run("bash", [server.script, "stop"]);
      if (code !== 0) notice.push(`${server.name}: bash ${server.script} stop exited ${code}; stop it by hand.`);
      else log(`${server.name}: stopped the server this run started`);
    }
    if (existsSync(reportFile)) {
      const groups = groupSkips(JSON.parse(readFileSync(reportFile, "utf8")), ROOT);
      console.log(["", ...formatSkipSummary(groups)].join("\n"));
    }
    rmSync(reportFolder, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    for (const line of notice) console.log(line);
    if (interrupted) exitCode = exitCode === 0 ? 130 : exitCode;
    process.exitCode = exitCode;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
