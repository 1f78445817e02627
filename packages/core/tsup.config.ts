import { definePackageConfig } from "../../tsup.config.base.js";

export default definePackageConfig({
  // `engine` is the context modules' narrow entry (src/engine-entry.ts): its chunks hold only what a manager runs.
  entry: { index: "src/index.ts", kit: "src/kit.ts", engine: "src/engine-entry.ts", "testing/index": "src/testing/index.ts" },
  // The rank tables with their hash index prebuilt (dist/ranks/*.bin): the first exact count reads one file.
  onSuccess: "node scripts/rank-index.mjs",
  // zod's functional API (zod/mini, all core's schemas use) goes into the build: a fresh process then loads one chunk,
  // not zod's hundred ES modules. zod stays a dependency, for the schemas' types.
  noExternal: [/^zod(\/|$)/],
});
