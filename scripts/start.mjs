// `pnpm start`: the core tour, then the conformance kit against every bundled context module, alone
// and with the summary strategy in its pipeline, and one closing line for the whole run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

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

// The PostgreSQL module runs when a server is known: CTXKIT_POSTGRES_URL, or the one `bash scripts/postgres.sh start` wrote.
const postgresEnv = join(root, ".tmp/postgres.env");
const postgresUrl =
  process.env.CTXKIT_POSTGRES_URL ??
  (existsSync(postgresEnv)
    ? readFileSync(postgresEnv, "utf8")
        .match(/^CTXKIT_POSTGRES_URL=(.+)$/m)?.[1]
        ?.trim()
    : undefined);
if (postgresUrl === undefined) {
  console.log(
    "context-postgres: no PostgreSQL server known (set CTXKIT_POSTGRES_URL, or run `bash scripts/postgres.sh start`); its conformance run is skipped.",
  );
} else {
  reports.push([
    "packages/context-postgres",
    "--restart",
    "--config",
    JSON.stringify({ connectionString: postgresUrl, schema: "ctxkit_start" }),
  ]);
}

// The Redis module likewise: CTXKIT_REDIS_URL, or the one `bash scripts/redis.sh start` wrote.
const redisEnv = join(root, ".tmp/redis.env");
const redisUrl =
  process.env.CTXKIT_REDIS_URL ??
  (existsSync(redisEnv)
    ? readFileSync(redisEnv, "utf8")
        .match(/^CTXKIT_REDIS_URL=(.+)$/m)?.[1]
        ?.trim()
    : undefined);
if (redisUrl === undefined) {
  console.log(
    "context-redis: no Redis server known (set CTXKIT_REDIS_URL, or run `bash scripts/redis.sh start`); its conformance run is skipped.",
  );
} else {
  reports.push(["packages/context-redis", "--restart", "--config", JSON.stringify({ url: redisUrl, keyPrefix: "ctxkit-start:" })]);
}

const tourStatus = run(["scripts/demo-core.mjs"]);
const failed = [];
try {
  for (const report of reports) {
    const command = `ctxkit-conformance ${report.map(shellQuote).join(" ")}`;
    console.log(`\n$ ${command}`);
    if (run([conformance, ...report]) !== 0) failed.push(command);
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
    (failed.length === 0 ? "" : `; failed: ${failed.join(" | ")}`) +
    `; ${detection.summary}.`,
);
process.exit(tourStatus !== 0 || failed.length > 0 || !detection.allCaught ? 1 : 0);

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
