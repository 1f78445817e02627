// The packages a user installs: every packages/* folder whose package.json is not private, found afresh each run.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** @returns {{ name: string, directory: string, folder: string, manifest: Record<string, any> }[]} */
export function publishablePackages(root) {
  const packagesFolder = join(root, "packages");
  return readdirSync(packagesFolder)
    .sort()
    .map((folder) => ({ folder, directory: join(packagesFolder, folder), file: join(packagesFolder, folder, "package.json") }))
    .filter(({ file }) => existsSync(file))
    .map(({ folder, directory, file }) => ({ folder, directory, manifest: JSON.parse(readFileSync(file, "utf8")) }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ folder, directory, manifest }) => ({ name: manifest.name, folder, directory, manifest }));
}
