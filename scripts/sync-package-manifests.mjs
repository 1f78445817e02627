// `node scripts/sync-package-manifests.mjs`: gives every publishable package the manifest fields the pack lint
// asks for (repository, homepage, bugs, keywords, publishConfig.exports), keeping whatever is already there.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { publishablePackages } from "./publishable-packages.mjs";
import { REPOSITORY_URL, withoutSourceCondition } from "./manifest-problems.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));

for (const { folder, directory, manifest } of publishablePackages(root)) {
  const synced = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (key === "publishConfig") continue;
    synced[key] = value;
    // Right after the map it mirrors, so the two are read together.
    if (key === "exports") synced.publishConfig = { ...manifest.publishConfig, exports: withoutSourceCondition(value) };
    if (key === "license") {
      synced.keywords = manifest.keywords ?? ["ctxkit", "llm", "agents", "context"];
      synced.homepage = manifest.homepage ?? `https://github.com/ctxkit/ctxkit/tree/main/packages/${folder}#readme`;
      synced.repository = { type: "git", url: REPOSITORY_URL, directory: `packages/${folder}` };
      synced.bugs = manifest.bugs ?? { url: "https://github.com/ctxkit/ctxkit/issues" };
    }
  }
  if (synced.license === undefined) throw new Error(`packages/${folder}/package.json has no "license": add "license": "MIT" first`);
  if (manifest.exports === undefined && manifest.publishConfig !== undefined) synced.publishConfig = manifest.publishConfig;
  const text = `${JSON.stringify(synced, null, 2)}\n`;
  writeFileSync(join(directory, "package.json"), text);
}
