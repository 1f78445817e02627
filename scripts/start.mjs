// `pnpm start`: the core tour, then the conformance kit against every bundled context module.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" }).status ?? 1;

const conformance = "packages/conformance/dist/cli.js";
const reports = [["packages/context-simple"]];

let status = run(["scripts/demo-core.mjs"]);
for (const report of reports) status = run([conformance, ...report]) || status;
process.exit(status);
