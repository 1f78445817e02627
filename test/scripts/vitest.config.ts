import { defineProject } from "vitest/config";

// The scripts run on plain Node: no source conditions needed.
export default defineProject({
  test: {
    name: "scripts",
    include: ["src/**/*.test.ts"],
    testTimeout: 60_000,
  },
});
