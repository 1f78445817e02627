// `pnpm start`: the core tour, then the conformance kit against every bundled context module, alone
// and with the summary strategy in its pipeline, and one closing line for the whole run: what ran, what
// was skipped and why, and how long it all took.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { findKnownServer, SERVERS } from "./test.mjs";

const startedAt = Date.now();

const root = fileURLToPath(new URL("..", import.meta.url));
const storagePath = mkdtempSync(join(tmpdir(), "ctxkit-start-"));
const env = { ...process.env, CTXKIT_START_STORAGE: storagePath };
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit", env }).status ?? 1;
/** Quotes an argument for a POSIX shell, so a printed command can be pasted as it is. */
const shellQuote = (argument) => (/^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`);

const conformance = "packages/conformance/dist/cli.js";
const withSummary = { strategies: ["clear-tool-results", { module: "./packages/strategy-summary", config: {} }, "truncate"] };
const reports = [
  ["packages/context-simple"],
  ["packages/context-persistent", "--restart", "--config", JSON.stringify({ storagePath })],
  ["packages/context-simple", "--config", JSON.stringify(withSummary)],
  // Declared by the module itself (its `conformance` export), since restart needs the kit's summarizer mounted.
  ["scripts/persistent-with-summary.mjs"],
];

// The server modules run when their server is known, as for `pnpm test`: the URL variable, or a server that answers
// where `bash scripts/<name>.sh start` recorded it. A skipped one is named, with why, on the closing line.
const skipped = [];
const serverUrl = async (server, module) => {
  const known = await findKnownServer(server);
  if (known === undefined) {
    skipped.push(`${module} (no ${server.name} server: set ${server.variable} or run \`bash ${server.script} start\`)`);
  }
  return known?.url;
};
const [postgresServer, redisServer] = SERVERS;

const postgresUrl = await serverUrl(postgresServer, "context-postgres");
if (postgresUrl !== undefined) {
  reports.push([
    "packages/context-postgres",
    "--restart",
    "--config",
    JSON.stringify({ connectionString: postgresUrl, schema: "ctxkit_start" }),
  ]);
}

const redisUrl = await serverUrl(redisServer, "context-redis");
if (redisUrl !== undefined) {
  reports.push(["packages/context-redis", "--restart", "--config", JSON.stringify({ url: redisUrl, keyPrefix: "ctxkit-start:" })]);
}

const tourStatus = run(["scripts/demo-core.mjs"]);
const failed = [];
try {
  for (const report of reports) {
    const command = `ctxkit-conformance ${report.map(shellQuote).join(" ")}`;
    console.log(`\n$ ${command}`);
    if ((await runReport([conformance, ...report])) !== 0) failed.push(command);
  }
} finally {
  rmSync(storagePath, { recursive: true, force: true });
}

// How reliably the kit catches its own broken modules: each family's test runs every broken module
// over 20 fresh seeds and records how many caught it. Adding a family is one line here.
const detectionFamilies = [
  { family: "managers", file: "packages/conformance/test/detection-over-seeds.test.ts" },
  { family: "strategies", file: "packages/conformance/test/strategy-detection-over-seeds.test.ts" },
  { family: "adapters", file: "packages/conformance/test/adapter-detection-over-seeds.test.ts" },
  // The store suite draws nothing at random: each broken store runs 20 times, for the flaws that hang on timing.
  { family: "stores", file: "packages/conformance/test/store-detection.test.ts", unit: "runs" },
];
const detection = measureDetection(detectionFamilies);
console.log(`\n$ conformance kit against its broken modules, over fresh seeds\n${detection.lines.join("\n")}`);

const passed = reports.length - failed.length;
console.log(
  `\nctxkit: core tour ${tourStatus === 0 ? "ok" : "FAILED"}; conformance ${passed}/${reports.length} setups passed` +
    (skipped.length === 0 ? "" : `, skipped ${skipped.join(" and ")}`) +
    (failed.length === 0 ? "" : `; failed: ${failed.join(" | ")}`) +
    `; ${detection.summary}; ${formatElapsed(Date.now() - startedAt)} in all.`,
);
process.exit(tourStatus !== 0 || failed.length > 0 || !detection.allCaught ? 1 : 0);

/**
 * Runs one conformance report, its output passed on line by line, less the report's closing repeat of what a
 * property measured ("name: note"): the property's own line already ends with that note.
 */
function runReport(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"], env });
    const printed = [];
    createInterface({ input: child.stdout }).on("line", (line) => {
      const repeat = /^([\w-]+): (.+)$/.exec(line);
      if (repeat !== null && printed.some((earlier) => isCheckLineWithNote(earlier, repeat[1], repeat[2]))) return;
      // The blank line that opened the dropped block goes with it.
      if (line === "" && printed.at(-1) === "") return;
      printed.push(line);
      console.log(line);
    });
    child.once("error", () => resolve(1));
    child.once("close", (code) => resolve(code ?? 1));
  });
}

/** Whether `line` is the report's line for check `name` ("  pass  name  …"), ending with `note`. */
function isCheckLineWithNote(line, name, note) {
  const plain = line.replace(/\u001b\[[0-9;]*m/g, "");
  return new RegExp(`^\\s+\\S+\\s+${name}\\s`).test(plain) && plain.endsWith(note);
}

function formatElapsed(milliseconds) {
  const seconds = Math.round(milliseconds / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, "0")}s`;
}

function measureDetection(families) {
  const folder = mkdtempSync(join(tmpdir(), "ctxkit-detection-"));
  const recordFile = join(folder, "detection.jsonl");
  try {
    const files = families.filter(({ file }) => existsSync(join(root, file))).map(({ file }) => file);
    spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--reporter=dot", ...files], {
      cwd: root,
      stdio: "ignore",
      env: { ...process.env, CTXKIT_DETECTION_REPORT: recordFile },
    });
    const records = existsSync(recordFile)
      ? readFileSync(recordFile, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line))
      : [];
    const lines = [];
    let allCaught = records.length > 0;
    for (const { family, unit = "seeds" } of families) {
      const mine = records.filter((record) => record.family === family);
      if (mine.length === 0) {
        lines.push(`${family}: no detection run recorded`);
        allCaught = false;
        continue;
      }
      const seeds = Math.min(...mine.map((record) => record.total));
      const short = mine.filter((record) => record.caught < record.total);
      if (short.length > 0) allCaught = false;
      lines.push(
        `${family}: ${mine.length - short.length}/${mine.length} broken ${family} caught in ${seeds}/${seeds} ${unit}` +
          short
            .map((record) => `; "${record.flaw}" caught in ${record.caught}/${record.total} (missed ${unit} ${record.missed.join(",")})`)
            .join(""),
      );
    }
    const total = records.length;
    const caught = records.filter((record) => record.caught === record.total).length;
    return { lines, allCaught, summary: `broken modules caught in every seed: ${caught}/${total}` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
