// Packs every publishable package with pnpm (which applies publishConfig and resolves workspace: ranges) into a folder.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { publishablePackages } from "./publishable-packages.mjs";

/** pnpm itself when a pnpm script runs this, else the pnpm on PATH. */
function pnpmCommand() {
  const execPath = process.env["npm_execpath"];
  return execPath !== undefined && /pnpm/.test(execPath) ? [process.execPath, [execPath]] : ["pnpm", []];
}

/** @returns {{ name: string, folder: string, manifest: Record<string, any>, tarball: string }[]} */
export function packPackages(root, destination) {
  const [command, prefix] = pnpmCommand();
  return publishablePackages(root).map((entry) => {
    const before = new Set(readdirSync(destination));
    execFileSync(command, [...prefix, "pack", "--pack-destination", destination], {
      cwd: entry.directory,
      stdio: ["ignore", "ignore", "inherit"],
    });
    const created = readdirSync(destination).filter((file) => !before.has(file) && file.endsWith(".tgz"));
    if (created.length !== 1) throw new Error(`pnpm pack in packages/${entry.folder} made ${created.length} tarballs`);
    return { ...entry, tarball: join(destination, created[0]) };
  });
}
