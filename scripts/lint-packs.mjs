// `pnpm lint` on what users install: packs every publishable package, then checks each tarball's manifest,
// runs publint and @arethetypeswrong/cli on it. Exits non-zero with every problem listed.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { packPackages } from "./pack-packages.mjs";
import { manifestProblems } from "./manifest-problems.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const bin = (name) => join(root, "node_modules", ".bin", name);
const destination = mkdtempSync(join(tmpdir(), "ctxkit-lint-packs-"));
const runFile = promisify(execFile);

/** Runs a check; resolves with its output as a problem when it fails, else undefined. */
async function run(label, command, args) {
  try {
    await runFile(command, args, { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    return undefined;
  } catch (error) {
    return `${label}:\n${`${error.stdout ?? ""}${error.stderr ?? ""}`.trim() || error.message}`;
  }
}

/** One tarball's problems: its manifest, publint, attw. */
async function checkPack(pack) {
  const packed = JSON.parse(execFileSync("tar", ["-xzOf", pack.tarball, "package/package.json"], { encoding: "utf8" }));
  const problems = manifestProblems(pack.folder, pack.manifest, packed).map((problem) => `${pack.name}: ${problem}`);
  const results = await Promise.all([
    // --strict: a publint warning (a missing file, a condition order) fails the lint too.
    run(`${pack.name}: publint`, bin("publint"), ["run", pack.tarball, "--strict"]),
    // ESM only: the CJS rows of the default profile would flag require(), which these packages do not offer.
    run(`${pack.name}: attw`, bin("attw"), [pack.tarball, "--profile", "esm-only", "--no-emoji", "--no-color", "--format", "ascii"]),
  ]);
  console.log(`checked ${pack.name}`);
  return [...problems, ...results.filter((problem) => problem !== undefined)];
}

const problems = [];
try {
  // Packed one after another (each pack is found as the one new file), then checked on every core at once: the
  // checks are separate processes. Problems are listed in package order whatever order the checks end in.
  const packs = packPackages(root, destination);
  const found = new Array(packs.length);
  let next = 0;
  const worker = async () => {
    while (next < packs.length) {
      const index = next++;
      found[index] = await checkPack(packs[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.floor(availableParallelism() / 2)) }, worker));
  problems.push(...found.flat());
} finally {
  rmSync(destination, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(`\n${problems.join("\n\n")}`);
  process.exitCode = 1;
}
