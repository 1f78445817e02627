import { definePackageConfig } from "../../tsup.config.base.js";

// Three entries: the readers with the replay library, the replay library alone (which the bench imports), and the command.
export default definePackageConfig({
  entry: { index: "src/index.ts", replay: "src/replay/index.ts", cli: "src/cli.ts" },
});
