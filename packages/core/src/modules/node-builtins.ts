// Node's file-system modules for the module and mount-plan loaders, taken when a loader runs, not imported: so
// @ctxkit/core bundles for browsers and edge workers, where only these loaders are missing.
import { ContextArgumentError } from "../errors.js";

export interface NodeBuiltins {
  readonly fs: typeof import("node:fs");
  readonly fsPromises: typeof import("node:fs/promises");
  readonly path: typeof import("node:path");
  readonly url: typeof import("node:url");
}

/**
 * Node's modules, through `process.getBuiltinModule` (Node 20.16 and later). Elsewhere it throws a
 * `ContextArgumentError` naming `operation`: reading a module or a plan from files needs Node, and an edge
 * runtime passes what it would have read (a plan object to `mountPlan`, strategies and stores as values).
 */
export function nodeBuiltins(operation: string): NodeBuiltins {
  const node = globalThis.process;
  if (typeof node?.getBuiltinModule !== "function") {
    throw new ContextArgumentError(operation, [
      {
        path: "runtime",
        message:
          "reads files, which needs Node 20.16 or later; in a browser or an edge runtime, pass the plan object to mountPlan and give modules, strategies and stores as values",
      },
    ]);
  }
  return {
    fs: node.getBuiltinModule("node:fs"),
    fsPromises: node.getBuiltinModule("node:fs/promises"),
    path: node.getBuiltinModule("node:path"),
    url: node.getBuiltinModule("node:url"),
  };
}

/** `process.cwd()` where there is a process; "." elsewhere, where nothing is resolved against it. */
export function currentDirectory(): string {
  return globalThis.process?.cwd?.() ?? ".";
}
