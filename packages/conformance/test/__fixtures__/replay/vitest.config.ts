// Runs the replay fixture on its own, as a module author's vitest would run their conformance test file.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const conditions = ["@ctxkit/source", "module", "node", "default"];

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: { include: ["*.replay.ts"], testTimeout: 60_000 },
});
