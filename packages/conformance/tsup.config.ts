import { definePackageConfig } from "../../tsup.config.base.js";

// Three entries: the framework-free kit, the vitest suite, and the CLI (its shebang stays on top).
export default definePackageConfig({
  entry: { index: "src/index.ts", vitest: "src/vitest.ts", cli: "src/cli.ts" },
  external: ["vitest"],
});
