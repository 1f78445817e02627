// `node scripts/sync-package-manifests.mjs`: gives every publishable package the manifest fields the pack lint
// asks for (repository, homepage, bugs, keywords, publishConfig.exports), keeping whatever is already there
// except a folder name copied from another package's manifest.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { publishablePackages } from "./publishable-packages.mjs";
import { syncManifest } from "./manifest-problems.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));

for (const { folder, directory, manifest } of publishablePackages(root)) {
  writeFileSync(join(directory, "package.json"), `${JSON.stringify(syncManifest(folder, manifest), null, 2)}\n`);
}
