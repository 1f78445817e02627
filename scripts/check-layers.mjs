// Checks the shape of the sources, as architecture/layers.md describes it: in packages/core/src an import never
// runs up the layer order, and no source file in packages/*/src is longer than MAX_LINES.
// Usage: node scripts/check-layers.mjs [repository root]. Exits 1 naming each file and line that breaks a rule.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const MAX_LINES = 400;

/**
 * Files already over MAX_LINES when the limit came, each with the length it may not pass: they are to be split,
 * and meanwhile may shrink but not grow. Lower an entry when its file shrinks; remove it once the file is split.
 * @type {Record<string, number>}
 */
export const LONG_FILE_ALLOWANCES = {
  "packages/core/src/engine/context-engine.ts": 415,
};

/**
 * Core's layers, bottom first: a file may import from its own layer and the ones before it, never from a later one.
 * Each entry is a folder of packages/core/src, or one file where a file sits below the rest of its folder.
 * Derived from the imports: see architecture/layers.md for what each layer holds and why it sits where it does.
 */
export const CORE_LAYERS = [
  { name: "errors", paths: ["errors.ts"] },
  { name: "events", paths: ["events.ts"] },
  { name: "zod-locale", paths: ["zod-locale.ts"] },
  { name: "build-on-first-use", paths: ["build-on-first-use.ts"] },
  { name: "messages", paths: ["messages"] },
  { name: "tokens", paths: ["tokens"] },
  { name: "units", paths: ["units"] },
  {
    name: "config",
    paths: [
      "modules/parse-config.ts",
      "modules/config-issues.ts",
      "modules/closest-name.ts",
      "modules/known-keys.ts",
      "modules/duration-ms.ts",
    ],
  },
  { name: "pipeline", paths: ["pipeline"] },
  { name: "protocol", paths: ["protocol.ts"] },
  { name: "budget", paths: ["budget"] },
  { name: "tools", paths: ["tools"] },
  { name: "strategies", paths: ["strategies"] },
  { name: "store", paths: ["store"] },
  { name: "adapters", paths: ["adapters"] },
  { name: "coordinator", paths: ["coordinator"] },
  { name: "engine", paths: ["engine"] },
  { name: "provider-loop", paths: ["provider-loop"] },
  { name: "modules", paths: ["modules"] },
  { name: "testing", paths: ["testing"] },
  { name: "entries", paths: ["index.ts", "kit.ts", "engine-entry.ts"] },
];

const SOURCE_FILE = /\.(ts|tsx|mts|cts|js|mjs)$/;
const TEST_FILE = /\.test\.(ts|tsx|mts|cts|js|mjs)$/;
// `from "./x.js"`, `import "./x.js"` and `import("./x.js")`: the relative specifiers of a line.
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

function listFiles(folder) {
  let entries;
  try {
    entries = readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "dist" ? [] : listFiles(path);
    return SOURCE_FILE.test(entry.name) ? [path] : [];
  });
}

/** The layer index of a path relative to core's src (forward slashes), or undefined when no layer names it. */
export function layerOf(path, layers = CORE_LAYERS) {
  // A file named on its own wins over its folder.
  const byFile = layers.findIndex((layer) => layer.paths.includes(path));
  if (byFile !== -1) return byFile;
  const folder = path.split("/")[0];
  const byFolder = layers.findIndex((layer) => layer.paths.includes(folder));
  return byFolder === -1 ? undefined : byFolder;
}

/** The problems of the tree under `root`: each `{ file, line, message }`, file relative to `root`. */
export function checkLayers(root, { layers = CORE_LAYERS, maxLines = MAX_LINES, allowances = LONG_FILE_ALLOWANCES } = {}) {
  const problems = [];
  const packagesFolder = join(root, "packages");
  let packages = [];
  try {
    packages = readdirSync(packagesFolder, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  } catch {
    // No packages folder: nothing to check.
  }
  const coreSource = join(packagesFolder, "core", "src");
  for (const entry of packages) {
    for (const file of listFiles(join(packagesFolder, entry.name, "src"))) {
      const lines = readFileSync(file, "utf8").split("\n");
      if (lines.at(-1) === "") lines.pop();
      const shown = relative(root, file).split(sep).join("/");
      const limit = Math.max(maxLines, allowances[shown] ?? 0);
      if (lines.length > limit) {
        const allowed = limit > maxLines ? ` (its allowance, until it is split, is ${limit})` : "";
        problems.push({
          file: shown,
          line: limit + 1,
          message: `${lines.length} lines, over the ${maxLines}-line limit${allowed}: split it into files of one concept each`,
        });
      }
      if (file.startsWith(coreSource + sep) && !TEST_FILE.test(file)) {
        problems.push(...checkImports(coreSource, file, shown, lines, layers));
      }
    }
  }
  return problems;
}

function checkImports(coreSource, file, shown, lines, layers) {
  const problems = [];
  const from = relative(coreSource, file).split(sep).join("/");
  const fromLayer = layerOf(from, layers);
  if (fromLayer === undefined) {
    return [
      {
        file: shown,
        line: 1,
        message: `no layer holds ${from}: add its folder to CORE_LAYERS in scripts/check-layers.mjs and to architecture/layers.md`,
      },
    ];
  }
  lines.forEach((text, index) => {
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const target = relative(coreSource, resolve(dirname(file), match[1]))
        .split(sep)
        .join("/")
        .replace(/\.js$/, ".ts");
      if (target.startsWith("../")) continue;
      const targetLayer = layerOf(target, layers);
      if (targetLayer === undefined || targetLayer <= fromLayer) continue;
      problems.push({
        file: shown,
        line: index + 1,
        message: `${layers[fromLayer].name} imports ${match[1]} from ${layers[targetLayer].name}, a later layer: move what both need down, or the importer up (architecture/layers.md)`,
      });
    }
  });
  return problems;
}

function main() {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), ".."));
  const problems = checkLayers(root);
  for (const problem of problems) console.error(`${problem.file}:${problem.line}: ${problem.message}`);
  if (problems.length > 0) {
    console.error(`check-layers: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
