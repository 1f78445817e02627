// Shared per-package test settings: resolve workspace packages to their sources, so tests need no build.
import { defineProject } from "vitest/config";

// No "import" here: vite adds it for imports itself, and a forced "import" would make require() load ESM builds (pg-pool).
const sourceConditions = ["@ctxkit/source", "module", "node", "default"];

export function definePackageTestConfig(name: string) {
  return defineProject({
    resolve: { conditions: sourceConditions },
    ssr: { resolve: { conditions: sourceConditions } },
    test: {
      name,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      testTimeout: 60_000,
    },
  });
}
