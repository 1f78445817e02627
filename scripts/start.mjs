// `pnpm start`: the core tour, then the conformance kit against every bundled context module.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" }).status ?? 1;

let status = run(["scripts/demo-core.mjs"]);
const cli = "packages/conformance/dist/cli.js";
if (existsSync(cli)) {
  for (const module of ["packages/context-simple"]) status ||= run([cli, module]);
}
process.exit(status);
