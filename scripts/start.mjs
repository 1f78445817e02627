// `pnpm start`: the core tour, then the conformance kit against every bundled context module, alone
// and with the summary strategy in its pipeline, and one closing line for the whole run.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" }).status ?? 1;
/** Quotes an argument for a POSIX shell, so a printed command can be pasted as it is. */
const shellQuote = (argument) => (/^[\w@%+=:,./-]+$/.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`);

const conformance = "packages/conformance/dist/cli.js";
const storagePath = mkdtempSync(join(tmpdir(), "ctxkit-start-"));
const withSummary = { strategies: ["clear-tool-results", { module: "./packages/strategy-summary", config: {} }, "truncate"] };
const reports = [
  ["packages/context-simple"],
  ["packages/context-persistent", "--config", JSON.stringify({ storagePath })],
  ["packages/context-simple", "--config", JSON.stringify(withSummary)],
  ["packages/context-persistent", "--config", JSON.stringify({ storagePath, ...withSummary })],
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
  reports.push(["packages/context-postgres", "--config", JSON.stringify({ connectionString: postgresUrl, schema: "ctxkit_start" })]);
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
  reports.push(["packages/context-redis", "--config", JSON.stringify({ url: redisUrl, keyPrefix: "ctxkit-start:" })]);
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

// The kit's mutation score: its own tests run a broken module (or strategy) per check, and each test
// passes only when the kit catches its mutant.
const mutation = measureMutationScore();
console.log(`\n$ conformance kit against its mutants\n${mutation.line}`);

const passed = reports.length - failed.length;
console.log(
  `\nctxkit: core tour ${tourStatus === 0 ? "ok" : "FAILED"}; conformance ${passed}/${reports.length} setups passed` +
    (failed.length === 0 ? "" : `; failed: ${failed.join(" | ")}`) +
    `; mutation score ${mutation.caught}/${mutation.total}.`,
);
process.exit(tourStatus !== 0 || failed.length > 0 || mutation.caught < mutation.total ? 1 : 0);

function measureMutationScore() {
  const folder = mkdtempSync(join(tmpdir(), "ctxkit-mutants-"));
  const outputFile = join(folder, "report.json");
  try {
    const files = [
      "packages/conformance/test/broken-modules.test.ts",
      "packages/conformance/src/strategy/run-strategy-conformance.test.ts",
    ];
    spawnSync(process.execPath, ["node_modules/vitest/vitest.mjs", "run", "--reporter=json", `--outputFile=${outputFile}`, ...files], {
      cwd: root,
      stdio: "ignore",
    });
    const results = existsSync(outputFile)
      ? JSON.parse(readFileSync(outputFile, "utf8")).testResults.flatMap((file) => file.assertionResults)
      : [];
    const mutants = results.filter((test) => test.title.startsWith("should fail "));
    const missed = mutants.filter((test) => test.status !== "passed").map((test) => test.title.replace(/^should fail /, ""));
    const caught = mutants.length - missed.length;
    const share = mutants.length === 0 ? 0 : Math.round((100 * caught) / mutants.length);
    const line =
      mutants.length === 0
        ? "mutation score: the kit's own tests did not run"
        : `mutation score: ${caught}/${mutants.length} broken modules and strategies caught (${share}%)${missed.length === 0 ? "" : `; missed: ${missed.join(" | ")}`}`;
    return { caught, total: Math.max(mutants.length, 1), line };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
