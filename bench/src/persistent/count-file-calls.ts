// Counts every call into node's file system API (fs, fs/promises, FileHandle), to show that code does no file I/O.
import { open } from "node:fs/promises";
import { createRequire, syncBuiltinESMExports } from "node:module";

const require = createRequire(import.meta.url);

type Methods = Record<string, unknown>;

export interface FileCallCounter {
  readonly calls: number;
  /** Puts the original functions back. */
  restore(): void;
}

function wrapAll(target: Methods, counter: { calls: number }, undo: Array<() => void>): void {
  for (const [key, original] of Object.entries(Object.getOwnPropertyDescriptors(target))) {
    if (typeof original.value !== "function" || !original.writable || key === "constructor") continue;
    const call = original.value as (...args: unknown[]) => unknown;
    target[key] = function (this: unknown, ...args: unknown[]) {
      counter.calls += 1;
      return call.apply(this, args);
    };
    undo.push(() => {
      target[key] = call;
    });
  }
}

/**
 * Wraps every function of `fs` and `fs/promises` (ES module imports included, through
 * `syncBuiltinESMExports`) and every FileHandle method, so that any file operation counts.
 */
export async function countFileCalls(scratchFile: string): Promise<FileCallCounter> {
  const handle = await open(scratchFile, "a");
  const fileHandlePrototype = Object.getPrototypeOf(handle) as Methods;
  await handle.close();
  const counter = { calls: 0 };
  const undo: Array<() => void> = [];
  wrapAll(require("node:fs") as Methods, counter, undo);
  wrapAll(require("node:fs/promises") as Methods, counter, undo);
  wrapAll(fileHandlePrototype, counter, undo);
  syncBuiltinESMExports();
  return {
    get calls() {
      return counter.calls;
    },
    restore() {
      for (const restore of undo) restore();
      syncBuiltinESMExports();
    },
  };
}
