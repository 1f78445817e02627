// Turns what an operator wrote (a path, a folder or a package name) into something `import()` accepts.
import { nodeBuiltins } from "./node-builtins.js";
import { resolvePackageEntry } from "./package-entry.js";

/** POSIX (`/x`), Windows drive (`C:\\x`, `C:/x`) and UNC (`\\\\host\\x`) absolute paths, without node:path. */
function isAbsolutePath(specifier: string): boolean {
  return specifier.startsWith("/") || specifier.startsWith("\\\\") || /^[A-Za-z]:[\\/]/.test(specifier);
}

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
    isAbsolutePath(specifier)
  );
}

/** The file URL of a path specifier, resolved against `cwd`; a folder resolves to its package entry. */
export async function resolvePathUrl(specifier: string, cwd: string): Promise<string> {
  const { fsPromises, path, url } = nodeBuiltins("loadModule");
  const { fileURLToPath, pathToFileURL } = url;
  const absolute = specifier.startsWith("file:") ? fileURLToPath(specifier) : path.resolve(cwd, specifier);
  const stats = await fsPromises.stat(absolute);
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
  const { fsPromises, path, url } = nodeBuiltins("loadModule");
  const { name, subpath } = splitPackageName(specifier);
  for (let folder = path.resolve(cwd); ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, "node_modules", name);
    const isInstalled = await fsPromises.stat(candidate).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
    if (isInstalled) return url.pathToFileURL(await resolvePackageEntry(candidate, subpath)).href;
    if (path.dirname(folder) === folder) return undefined;
  }
}
