// A fresh folder per test, removed afterwards: tests never share or leave state on disk.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/** Call at the top of a describe block; `directory()` gives a new empty folder each time it is called. */
export function useTempDirectories(): { directory: () => Promise<string> } {
  const created: string[] = [];
  afterEach(async () => {
    await Promise.all(created.splice(0).map((path) => rm(path, { recursive: true, force: true })));
  });
  return {
    directory: async () => {
      const path = await mkdtemp(join(tmpdir(), "ctxkit-persistent-"));
      created.push(path);
      return path;
    },
  };
}
