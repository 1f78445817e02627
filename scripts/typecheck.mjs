// .ci/run's type check: every workspace package's sources and tests type-checked, each file once. A package's
// own `tsc --noEmit -p tsconfig.json` (its `typecheck` script, which `turbo run typecheck` runs for each) also
// checks the sources it imports, core's above all, so one run per package checked core's sources some twenty
// times. Here the packages whose tsconfig differs only in what it includes are checked as one program, under
// those same compiler options: the same files, the same strictness, each file checked once. A tsconfig with
// anything else (its own paths, references, another base) is checked on its own, as is a package whose typecheck
// script is not the plain tsc. Arguments go to every tsc (`--listFilesOnly` lists what is checked). Exits
// non-zero when any program has an error.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const ts = require("typescript");
const TSC = require.resolve("typescript/bin/tsc");
const PLAIN_SCRIPT = "tsc --noEmit -p tsconfig.json";
// Generated programs live with other caches: ignored by git, rebuilt every run.
const CACHE = join(ROOT, "node_modules", ".cache", "ctxkit-typecheck");
// Options naming a path are relative to their tsconfig: such a config is checked where it is.
const PATH_OPTIONS = new Set([
  "baseUrl",
  "declarationDir",
  "outDir",
  "outFile",
  "paths",
  "rootDir",
  "rootDirs",
  "tsBuildInfoFile",
  "typeRoots",
]);

/** The workspace's package folders, from pnpm-workspace.yaml's `packages` list (a folder, or `folder/*`). */
export function workspaceFolders(root = ROOT) {
  const lines = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8").split("\n");
  const start = lines.findIndex((line) => /^packages:\s*$/.test(line));
  const patterns = [];
  for (const line of lines.slice(start + 1)) {
    const entry = /^\s+-\s+["']?([^"'#\s]+)["']?/.exec(line);
    if (entry === null) break;
    patterns.push(entry[1]);
  }
  return patterns.flatMap((pattern) => {
    if (!pattern.endsWith("/*")) return [join(root, pattern)];
    const parent = join(root, pattern.slice(0, -2));
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name))
      .sort();
  });
}

/**
 * How each package is checked: `{ kind: "merged", key, folder, config }` when its tsconfig holds only `extends`,
 * `include` and compiler options naming no path; `{ kind: "alone", folder }` when its typecheck is the plain tsc
 * over another tsconfig; `{ kind: "script", folder }` when its typecheck script is something else. Packages
 * without a typecheck script are left out, as `turbo run typecheck` leaves them.
 */
export function planPackages(folders) {
  const plans = [];
  for (const folder of folders) {
    const manifestFile = join(folder, "package.json");
    if (!existsSync(manifestFile)) continue;
    const script = JSON.parse(readFileSync(manifestFile, "utf8")).scripts?.typecheck;
    if (script === undefined) continue;
    if (script !== PLAIN_SCRIPT) {
      plans.push({ kind: "script", folder });
      continue;
    }
    const file = join(folder, "tsconfig.json");
    const { config, error } = ts.readConfigFile(file, ts.sys.readFile);
    const compilerOptions = config?.compilerOptions ?? {};
    const mergeable =
      error === undefined &&
      typeof config.extends === "string" &&
      Array.isArray(config.include) &&
      Object.keys(config).every((key) => key === "extends" || key === "include" || key === "compilerOptions") &&
      Object.keys(compilerOptions).every((option) => !PATH_OPTIONS.has(option));
    if (!mergeable) {
      plans.push({ kind: "alone", folder });
      continue;
    }
    const base = resolve(folder, config.extends);
    plans.push({ kind: "merged", key: JSON.stringify({ base, compilerOptions }), folder, base, compilerOptions, include: config.include });
  }
  return plans;
}

/** One tsconfig per set of identical options, including every member package's own includes, resolved. */
export function mergedPrograms(plans) {
  const groups = new Map();
  for (const plan of plans.filter((candidate) => candidate.kind === "merged")) {
    const group = groups.get(plan.key) ?? { base: plan.base, compilerOptions: plan.compilerOptions, folders: [], include: [] };
    group.folders.push(plan.folder);
    for (const entry of plan.include) {
      const absolute = resolve(plan.folder, entry);
      if (!group.include.includes(absolute)) group.include.push(absolute);
    }
    groups.set(plan.key, group);
  }
  return [...groups.values()];
}

/** Runs a command, its output held until it ends so parallel programs do not interleave. */
function run(label, command, args, cwd) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.once("error", (error) => {
      console.error(`typecheck: could not run ${command}: ${error.message}`);
      resolvePromise(1);
    });
    child.once("close", (code) => {
      const text = Buffer.concat(output).toString("utf8").trimEnd();
      console.log(`typecheck: ${label}: ${code === 0 ? "ok" : `failed (exit ${code})`}${text === "" ? "" : `\n${text}`}`);
      resolvePromise(code ?? 1);
    });
  });
}

async function main() {
  const extra = process.argv.slice(2).filter((argument, index) => !(index === 0 && argument === "--"));
  const plans = planPackages(workspaceFolders());
  mkdirSync(CACHE, { recursive: true });
  const jobs = mergedPrograms(plans).map((group, index) => {
    const file = join(CACHE, `tsconfig.${index}.json`);
    writeFileSync(
      file,
      `${JSON.stringify({ extends: group.base, compilerOptions: group.compilerOptions, include: group.include }, null, 2)}\n`,
    );
    const names = group.folders.map((folder) => relative(ROOT, folder));
    return () =>
      run(
        `${names.length} package${names.length === 1 ? "" : "s"} (${names.join(", ")})`,
        process.execPath,
        [TSC, "-p", file, ...extra],
        ROOT,
      );
  });
  for (const plan of plans) {
    const name = relative(ROOT, plan.folder);
    if (plan.kind === "alone")
      jobs.push(() => run(name, process.execPath, [TSC, "--noEmit", "-p", "tsconfig.json", ...extra], plan.folder));
    if (plan.kind === "script") jobs.push(() => run(name, "pnpm", ["run", "typecheck", ...extra], plan.folder));
  }
  // Two at a time: the largest program takes one core, the rest share the other.
  const codes = [];
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) codes.push(await jobs[next++]());
  };
  await Promise.all([worker(), worker()]);
  process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
