import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "test/*", "examples/*", "bench", "contributing/examples"],
  },
});
