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
  (existsSync(postgresEnv) ? readFileSync(postgresEnv, "utf8").match(/^CTXKIT_POSTGRES_URL=(.+)$/m)?.[1]?.trim() : undefined);
if (postgresUrl === undefined) {
  console.log("context-postgres: no PostgreSQL server known (set CTXKIT_POSTGRES_URL, or run `bash scripts/postgres.sh start`); its conformance run is skipped.");
} else {
  reports.push(["packages/context-postgres", "--config", JSON.stringify({ connectionString: postgresUrl, schema: "ctxkit_start" })]);
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
const passed = reports.length - failed.length;
console.log(
  `\nctxkit: core tour ${tourStatus === 0 ? "ok" : "FAILED"}; conformance ${passed}/${reports.length} setups passed` +
    (failed.length === 0 ? "." : `; failed: ${failed.join(" | ")}`),
);
process.exit(tourStatus !== 0 || failed.length > 0 ? 1 : 0);
