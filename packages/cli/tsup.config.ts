import { definePackageConfig } from "../../tsup.config.base.js";

// Two entries: the readers with the replay library, and the replay library alone (which the bench imports).
export default definePackageConfig({
  entry: { index: "src/index.ts", replay: "src/replay/index.ts" },
});
