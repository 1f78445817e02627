import { defineProject } from "vitest/config";

// Runs after `pnpm build`, on what npm installs: no source conditions here, on purpose.
export default defineProject({
  test: {
    name: "pack",
    include: ["src/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
