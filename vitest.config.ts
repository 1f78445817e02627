import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "test/*", "examples/*", "bench", "contributing/examples"],
    // Most slow files wait on a server, a child process or an fsync rather than compute. Vitest's default
    // (one worker less than the cores) runs them one at a time on a two-core machine; two overlap the waits.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
