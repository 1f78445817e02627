// `pnpm lint` on what users install: packs every publishable package, then checks each tarball's manifest,
// runs publint and @arethetypeswrong/cli on it. Exits non-zero with every problem listed.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { packPackages } from "./pack-packages.mjs";
import { manifestProblems } from "./manifest-problems.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const bin = (name) => join(root, "node_modules", ".bin", name);
const destination = mkdtempSync(join(tmpdir(), "ctxkit-lint-packs-"));
const problems = [];

function run(label, command, args) {
  try {
    execFileSync(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  } catch (error) {
    problems.push(`${label}:\n${`${error.stdout ?? ""}${error.stderr ?? ""}`.trim() || error.message}`);
  }
}

try {
  for (const pack of packPackages(root, destination)) {
    const packed = JSON.parse(execFileSync("tar", ["-xzOf", pack.tarball, "package/package.json"], { encoding: "utf8" }));
    for (const problem of manifestProblems(pack.folder, pack.manifest, packed)) problems.push(`${pack.name}: ${problem}`);
    // --strict: a publint warning (a missing file, a condition order) fails the lint too.
    run(`${pack.name}: publint`, bin("publint"), ["run", pack.tarball, "--strict"]);
    // ESM only: the CJS rows of the default profile would flag require(), which these packages do not offer.
    run(`${pack.name}: attw`, bin("attw"), [pack.tarball, "--profile", "esm-only", "--no-emoji", "--no-color", "--format", "ascii"]);
    console.log(`checked ${pack.name}`);
  }
} finally {
  rmSync(destination, { recursive: true, force: true });
}
if (problems.length > 0) {
  console.error(`\n${problems.join("\n\n")}`);
  process.exitCode = 1;
}
