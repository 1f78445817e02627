import { definePackageConfig } from "../../tsup.config.base.js";

export default definePackageConfig({
  entry: { index: "src/index.ts", "testing/index": "src/testing/index.ts", kit: "src/kit.ts" },
});
