// `pnpm start`: the core tour, then the conformance kit against every bundled context module, alone
// and with the summary strategy in its pipeline.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" }).status ?? 1;

const conformance = "packages/conformance/dist/cli.js";
const storagePath = mkdtempSync(join(tmpdir(), "ctxkit-start-"));
const withSummary = { strategies: ["clear-tool-results", { module: "./packages/strategy-summary", config: {} }, "truncate"] };
const reports = [
  ["packages/context-simple"],
  ["packages/context-persistent", "--config", JSON.stringify({ storagePath })],
  ["packages/context-simple", "--config", JSON.stringify(withSummary)],
  ["packages/context-persistent", "--config", JSON.stringify({ storagePath, ...withSummary })],
];

let status = run(["scripts/demo-core.mjs"]);
try {
  for (const report of reports) {
    console.log(`\n$ ctxkit-conformance ${report.join(" ")}`);
    status = run([conformance, ...report]) || status;
  }
} finally {
  rmSync(storagePath, { recursive: true, force: true });
}
process.exit(status);
