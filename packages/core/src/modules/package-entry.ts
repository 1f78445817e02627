// Finds the file Node would import for a package folder, from its package.json `exports` or `main`.
import { nodeBuiltins } from "./node-builtins.js";

/** The conditions Node's `import` matches, in the order a package lists them. */
const IMPORT_CONDITIONS = new Set(["node", "import", "module-sync", "default"]);

/** Follows an `exports` target through nested conditions and fallback arrays, as Node does. */
function pickTarget(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  if (Array.isArray(target)) {
    for (const candidate of target) {
      const picked = pickTarget(candidate);
      if (picked !== undefined) return picked;
    }
    return undefined;
  }
  if (typeof target !== "object" || target === null) return undefined;
  for (const [condition, value] of Object.entries(target)) {
    if (!IMPORT_CONDITIONS.has(condition)) continue;
    const picked = pickTarget(value);
    if (picked !== undefined) return picked;
  }
  return undefined;
}

function pickExport(exportsField: unknown, subpath: string): string | undefined {
  const isSubpathMap =
    typeof exportsField === "object" && exportsField !== null && !Array.isArray(exportsField)
      ? Object.keys(exportsField).some((key) => key.startsWith("."))
      : false;
  if (isSubpathMap) return pickTarget((exportsField as Record<string, unknown>)[subpath]);
  // Without subpath keys, `exports` describes the main entry only.
  return subpath === "." ? pickTarget(exportsField) : undefined;
}

async function readManifest(folder: string): Promise<Record<string, unknown> | undefined> {
  const { fsPromises, path } = nodeBuiltins("resolvePackageEntry");
  let text: string;
  try {
    text = await fsPromises.readFile(path.join(folder, "package.json"), "utf8");
  } catch {
    return undefined;
  }
  const manifest: unknown = JSON.parse(text);
  return typeof manifest === "object" && manifest !== null ? (manifest as Record<string, unknown>) : undefined;
}

/**
 * Node's ESM loader does not import folders, so a folder is resolved here: `exports[subpath]`, then
 * `main`, then `index.js`. Only the first hop is resolved; `main` is taken as written (no extension search).
 * Throws when `exports` exists but does not export `subpath`, as Node would.
 */
export async function resolvePackageEntry(folder: string, subpath = "."): Promise<string> {
  const { path } = nodeBuiltins("resolvePackageEntry");
  const manifest = await readManifest(folder);
  if (manifest?.["exports"] !== undefined) {
    const target = pickExport(manifest["exports"], subpath);
    if (target === undefined) {
      throw new Error(`${path.join(folder, "package.json")} does not export "${subpath}" for import.`);
    }
    return path.resolve(folder, target);
  }
  if (subpath !== ".") return path.resolve(folder, subpath);
  const main = manifest?.["main"];
  return path.resolve(folder, typeof main === "string" && main !== "" ? main : "index.js");
}
