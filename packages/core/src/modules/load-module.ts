// loadModule: imports a ctxkit module by path, folder or package name, and checks its shape.
import { ModuleLoadError } from "../errors.js";
import type { ContextModule, CtxkitModule, StrategyModule } from "./module.js";
import { findShapeProblems, pickModuleExports } from "./module-shape.js";
import { currentDirectory } from "./node-builtins.js";
import { isPathSpecifier, resolveInstalledPackageUrl, resolvePathUrl } from "./resolve-module-url.js";

export interface LoadModuleOptions {
  /** Where relative paths and installed packages are looked up. Defaults to `process.cwd()`. */
  cwd?: string;
  /** Rejects a module of the other type, e.g. a strategy module given as the context module. */
  type?: CtxkitModule["meta"]["type"];
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isModuleNotFound(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND";
}

async function importPackage(specifier: string, cwd: string): Promise<unknown> {
  try {
    return await import(specifier);
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    const url = await resolveInstalledPackageUrl(specifier, cwd);
    if (url === undefined) throw error;
    return await import(url);
  }
}

async function importNamespace(specifier: string, cwd: string): Promise<Record<string, unknown>> {
  try {
    const namespace = isPathSpecifier(specifier) ? await import(await resolvePathUrl(specifier, cwd)) : await importPackage(specifier, cwd);
    return namespace as Record<string, unknown>;
  } catch (error) {
    throw new ModuleLoadError(specifier, [], { cause: error, reason: `import failed: ${describeError(error)}` });
  }
}

/**
 * Imports a module and validates its exports: `meta` with a valid `type` and a non-empty `name`,
 * `mount`, `configSchema`, and `createStrategy` for strategy modules.
 *
 * - A path (`./x.js`, `/abs/x.js`, `file:` URL) is resolved against `cwd`; a folder resolves to its
 *   package.json `exports["."]` (import conditions), then `main`, then `index.js`.
 * - A package name is imported as usual; if that cannot find it, it is looked up in `node_modules`
 *   from `cwd` upwards.
 *
 * Throws `ModuleLoadError`: with the cause when the import fails, or naming every bad export at once.
 */
export function loadModule(specifierOrPath: string, options: LoadModuleOptions & { type: "context" }): Promise<ContextModule>;
export function loadModule(specifierOrPath: string, options: LoadModuleOptions & { type: "strategy" }): Promise<StrategyModule>;
export function loadModule(specifierOrPath: string, options?: LoadModuleOptions): Promise<CtxkitModule>;
export async function loadModule(specifierOrPath: string, options: LoadModuleOptions = {}): Promise<CtxkitModule> {
  if (typeof specifierOrPath !== "string" || specifierOrPath.trim() === "") {
    throw new ModuleLoadError(String(specifierOrPath), [], { reason: "expected a package name or a path" });
  }
  const namespace = await importNamespace(specifierOrPath, options.cwd ?? currentDirectory());
  const exports = pickModuleExports(namespace);
  const problems = findShapeProblems(exports, options.type);
  if (problems.length > 0) {
    const reason = `missing or invalid export(s): ${problems.map((problem) => `${problem.name} (must be ${problem.expected})`).join(", ")}`;
    throw new ModuleLoadError(
      specifierOrPath,
      problems.map((problem) => problem.name),
      { reason },
    );
  }
  return exports as unknown as CtxkitModule;
}
