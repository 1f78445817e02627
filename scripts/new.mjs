// `pnpm new store|strategy|adapter NAME`: a package that installs, lints and typechecks at once, with its suite
// already called; until the author writes the TODOs, the suite fails on them alone, each naming what to write.
// `pnpm new package NAME`: a plain library package wired the same way, with no suite.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { syncManifest } from "./manifest-problems.mjs";

const templates = fileURLToPath(new URL("templates/", import.meta.url));

const USAGE = `Usage: pnpm new <store|strategy|adapter|package> <name> [--root DIR] [--no-install]

Scaffolds an extension with its conformance suite already called:
  store     packages/context-<name>   a MessageStore and its module (defineStoreModule)
  strategy  packages/strategy-<name>  a pipeline strategy and its module (meta, configSchema, createStrategy, mount)
  adapter   packages/<name>           to/from converters for one SDK's messages
  package   packages/<name>           a plain library package (no suite): a function, its test and a README

Then runs pnpm install. A store's, strategy's or adapter's tests fail only on the TODOs, each naming the
guide's section to read (contributing/add-a-store.md, add-a-strategy.md, add-an-adapter.md); a package's pass.

Example:
  pnpm new store sqlite

Options:
  --root DIR     the repository to write into (default: this one)
  --no-install   do not run pnpm install afterwards
  -h, --help     show this help

Exit codes: 0 done, 1 the package could not be written or installed, 2 a usage error.`;

const KINDS = {
  store: { folder: (name) => `context-${name}`, guide: "contributing/add-a-store.md", zod: true },
  strategy: { folder: (name) => `strategy-${name}`, guide: "contributing/add-a-strategy.md", zod: true },
  adapter: { folder: (name) => name, guide: "contributing/add-an-adapter.md", zod: false },
  // A plain library: no conformance suite to call, so no guide and no conformance dependency.
  package: { folder: (name) => name, zod: false, plain: true },
};

class UsageError extends Error {}

/** The arguments, or a UsageError saying what is wrong. */
function readArguments(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { root: { type: "string" }, "no-install": { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    throw new UsageError(error.message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const [kind, name, ...rest] = positionals;
  if (kind === undefined) throw new UsageError("name what to scaffold: store, strategy, adapter or package");
  if (!Object.hasOwn(KINDS, kind)) throw new UsageError(`"${kind}" is not store, strategy, adapter or package`);
  if (name === undefined) throw new UsageError(`name the ${kind}, e.g. pnpm new ${kind} sqlite`);
  if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}": give one kind and one name`);
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
    throw new UsageError(`"${name}" is not a package name: use lower-case letters, digits and single dashes, starting with a letter`);
  }
  return { kind, name, root: resolve(values.root ?? fileURLToPath(new URL("../", import.meta.url))), install: !values["no-install"] };
}

/** The names the templates use: `__name__` kebab-case, `__Name__` PascalCase, `__camelName__`, `__CONSTANT_NAME__`. */
function placeholders(kind, name) {
  const words = name.split("-");
  const pascal = words.map((word) => word[0].toUpperCase() + word.slice(1)).join("");
  const folder = KINDS[kind].folder(name);
  return [
    ["__CONSTANT_NAME__", words.join("_").toUpperCase()],
    ["__camelName__", pascal[0].toLowerCase() + pascal.slice(1)],
    ["__Name__", pascal],
    ["__name__", name],
    ["__folder__", folder],
    ["__package__", `@ctxkit/${folder}`],
  ];
}

function fill(text, names) {
  return names.reduce((result, [placeholder, value]) => result.replaceAll(placeholder, value), text);
}

/** Every template file under `folder`, as paths relative to it. */
function templateFiles(folder) {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    return statSync(path).isDirectory() ? templateFiles(path).map((inner) => join(entry, inner)) : [entry];
  });
}

/** The package.json, in the shape of the others; sync-package-manifests' fields are filled by the same code. */
function manifest(root, kind, names) {
  const lookup = Object.fromEntries(names);
  const core = JSON.parse(readFileSync(join(root, "packages/core/package.json"), "utf8"));
  const folder = lookup.__folder__;
  return syncManifest(folder, {
    name: lookup.__package__,
    version: "0.0.0",
    description: `TODO: one line on what ${lookup.__package__} does.`,
    license: "MIT",
    type: "module",
    sideEffects: false,
    engines: { node: core.engines?.node ?? ">=20.19" },
    exports: {
      ".": { "@ctxkit/source": "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" },
      "./package.json": "./package.json",
    },
    files: ["dist", "README.md"],
    scripts: { build: "tsup", typecheck: "tsc --noEmit -p tsconfig.json", lint: "publint" },
    dependencies: { "@ctxkit/core": "workspace:^", ...(KINDS[kind].zod ? { zod: core.dependencies.zod } : {}) },
    devDependencies: KINDS[kind].plain ? {} : { "@ctxkit/conformance": "workspace:^" },
  });
}

/**
 * The docs test runs every README's snippets against the packages it depends on: a new README needs its package
 * there. Returns the manifest's new text, written with the rest.
 */
function docsTestWith(root, packageName) {
  const docs = JSON.parse(readFileSync(join(root, "test/docs/package.json"), "utf8"));
  const devDependencies = { ...docs.devDependencies, [packageName]: "workspace:*" };
  docs.devDependencies = Object.fromEntries(Object.entries(devDependencies).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify(docs, null, 2)}\n`;
}

/** `pnpm install`, offline first: a fresh package needs nothing from the registry that the store does not hold. */
function install(root) {
  try {
    execFileSync("pnpm", ["install", "--offline"], { cwd: root, stdio: "inherit" });
  } catch {
    console.error("pnpm install --offline could not finish; trying pnpm install");
    execFileSync("pnpm", ["install"], { cwd: root, stdio: "inherit" });
  }
}

/** Writes the package; returns the files written, relative to `root`. */
export function scaffold({ kind, name, root }) {
  const names = placeholders(kind, name);
  const folder = KINDS[kind].folder(name);
  const directory = join(root, "packages", folder);
  const changeset = join(root, ".changeset", `${folder}.md`);
  for (const needed of ["packages/core/package.json", "test/docs/package.json"]) {
    if (!existsSync(join(root, needed))) throw new Error(`${root} has no ${needed}: pass --root the ctxkit repository's folder`);
  }
  for (const path of [directory, changeset]) {
    if (existsSync(path)) throw new Error(`${relative(root, path)} already exists: pick another name, or remove it first`);
  }
  const files = new Map();
  files.set(join(directory, "package.json"), `${JSON.stringify(manifest(root, kind, names), null, 2)}\n`);
  for (const [source, target] of [
    [join(templates, "common"), directory],
    [join(templates, kind), directory],
  ]) {
    for (const file of templateFiles(source)) {
      if (file === "changeset.md.tmpl") continue;
      files.set(join(target, fill(file, names).replace(/\.tmpl$/, "")), fill(readFileSync(join(source, file), "utf8"), names));
    }
  }
  files.set(changeset, fill(readFileSync(join(templates, kind, "changeset.md.tmpl"), "utf8"), names));
  // Everything is read before anything is written, so a missing file leaves no half-made package behind.
  files.set(join(root, "test/docs/package.json"), docsTestWith(root, `@ctxkit/${folder}`));
  for (const [path, text] of files) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return [...files.keys()].map((path) => relative(root, path));
}

function main() {
  let options;
  try {
    options = readArguments(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`pnpm new: ${error.message}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const folder = KINDS[options.kind].folder(options.name);
  let written;
  try {
    written = scaffold(options);
  } catch (error) {
    console.error(`pnpm new: ${error.message}`);
    return 1;
  }
  console.log(`Wrote ${written.length} files:\n${written.map((file) => `  ${file}`).join("\n")}`);
  if (options.install) {
    try {
      install(options.root);
    } catch {
      console.error("pnpm new: pnpm install failed (above); run it again once the network or the store is back");
      return 1;
    }
  }
  if (KINDS[options.kind].plain) {
    console.log(`
Next: write each TODO, then
  pnpm exec vitest run --project ${folder}
  pnpm --filter @ctxkit/${folder} typecheck
  pnpm lint`);
    return 0;
  }
  console.log(`
Next, in ${KINDS[options.kind].guide}: write each TODO, then
  pnpm exec vitest run --project ${folder}     the suite: until then it fails on each TODO, naming what to write
  pnpm --filter @ctxkit/${folder} typecheck
  pnpm lint`);
  return 0;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = main();
