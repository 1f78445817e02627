// Turns what an operator wrote (a path, a folder or a package name) into something `import()` accepts.
import { stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resolvePackageEntry } from "./package-entry.js";

/** Relative and absolute paths, and `file:` URLs; anything else is a package name. */
export function isPathSpecifier(specifier: string): boolean {
  return (
    specifier === "." ||
    specifier === ".." ||
    specifier.startsWith("./") ||
    specifier.startsWith("../") ||
    specifier.startsWith(".\\") ||
    specifier.startsWith("..\\") ||
    specifier.startsWith("file:") ||
    path.isAbsolute(specifier)
  );
}

/** The file URL of a path specifier, resolved against `cwd`; a folder resolves to its package entry. */
export async function resolvePathUrl(specifier: string, cwd: string): Promise<string> {
  const absolute = specifier.startsWith("file:") ? fileURLToPath(specifier) : path.resolve(cwd, specifier);
  const stats = await stat(absolute);
  const file = stats.isDirectory() ? await resolvePackageEntry(absolute) : absolute;
  return pathToFileURL(file).href;
}

function splitPackageName(specifier: string): { name: string; subpath: string } {
  const segments = specifier.split("/");
  const count = specifier.startsWith("@") ? 2 : 1;
  const rest = segments.slice(count);
  return { name: segments.slice(0, count).join("/"), subpath: rest.length === 0 ? "." : `./${rest.join("/")}` };
}

/**
 * Looks for a package in `node_modules` folders from `cwd` upwards, the way a project sees its own
 * dependencies. Needed because a plain `import(name)` resolves from @ctxkit/core's own location, which
 * under pnpm's strict layout cannot see the project's packages. Returns undefined when not installed.
 */
export async function resolveInstalledPackageUrl(specifier: string, cwd: string): Promise<string | undefined> {
  const { name, subpath } = splitPackageName(specifier);
  for (let folder = path.resolve(cwd); ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, "node_modules", name);
    const isInstalled = await stat(candidate).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    if (isInstalled) return pathToFileURL(await resolvePackageEntry(candidate, subpath)).href;
    if (path.dirname(folder) === folder) return undefined;
  }
}
