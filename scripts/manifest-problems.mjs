// What a published package.json must carry, so that a new package cannot ship without it.
export const REPOSITORY_URL = "git+https://github.com/ctxkit/ctxkit.git";
const FIX = "(node scripts/sync-package-manifests.mjs adds it)";

/** An exports map as published: the workspace-only condition points into src/, which is not packed. */
export function withoutSourceCondition(exports) {
  if (typeof exports !== "object" || exports === null) return exports;
  return Object.fromEntries(
    Object.entries(exports)
      .filter(([key]) => key !== "@ctxkit/source")
      .map(([key, value]) => [key, withoutSourceCondition(value)]),
  );
}

const HOMEPAGE = (folder) => `https://github.com/ctxkit/ctxkit/tree/main/packages/${folder}#readme`;
/** A homepage this script wrote: one copied from another package's manifest names that package's folder. */
const WRITTEN_HOMEPAGE = /^https:\/\/github\.com\/ctxkit\/ctxkit\/tree\/main\/packages\/[^/#]+#readme$/;
/** The fields written beside "license", whatever the manifest held for them. */
const SYNCED_KEYS = new Set(["keywords", "homepage", "repository", "bugs"]);

/**
 * `manifest` with the fields the pack lint asks for (repository, homepage, bugs, keywords, publishConfig.exports),
 * keeping what is already there, except what names a folder: `repository.directory` is always `packages/<folder>`,
 * and a homepage of this repository's names this folder, so a manifest copied from another package is fixed.
 */
export function syncManifest(folder, manifest) {
  const synced = {};
  for (const [key, value] of Object.entries(manifest)) {
    if (key === "publishConfig" || SYNCED_KEYS.has(key)) continue;
    synced[key] = value;
    // Right after the map it mirrors, so the two are read together.
    if (key === "exports") synced.publishConfig = { ...manifest.publishConfig, exports: withoutSourceCondition(value) };
    if (key === "license") {
      synced.keywords = manifest.keywords ?? ["ctxkit", "llm", "agents", "context"];
      const homepage = manifest.homepage;
      synced.homepage = typeof homepage === "string" && !WRITTEN_HOMEPAGE.test(homepage) ? homepage : HOMEPAGE(folder);
      synced.repository = { type: "git", url: REPOSITORY_URL, directory: `packages/${folder}` };
      synced.bugs = manifest.bugs ?? { url: "https://github.com/ctxkit/ctxkit/issues" };
    }
  }
  if (synced.license === undefined) throw new Error(`packages/${folder}/package.json has no "license": add "license": "MIT" first`);
  if (manifest.exports === undefined && manifest.publishConfig !== undefined) synced.publishConfig = manifest.publishConfig;
  return synced;
}

/** @returns {string[]} one line per problem; `packed` is the package.json inside the tarball. */
export function manifestProblems(folder, manifest, packed) {
  const problems = [];
  if (manifest.license !== "MIT") problems.push(`"license" should be "MIT"`);
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0) problems.push(`"keywords" is missing ${FIX}`);
  if (typeof manifest.homepage !== "string") problems.push(`"homepage" is missing ${FIX}`);
  if (typeof manifest.bugs?.url !== "string") problems.push(`"bugs.url" is missing ${FIX}`);
  const repository = manifest.repository;
  if (repository?.type !== "git" || repository.url !== REPOSITORY_URL || repository.directory !== `packages/${folder}`) {
    problems.push(`"repository" should be { "type": "git", "url": "${REPOSITORY_URL}", "directory": "packages/${folder}" } ${FIX}`);
  }
  // The workspace-only condition points into src/, which is not packed: publishConfig.exports replaces the map on pack.
  if (
    JSON.stringify(packed.exports ?? {}).includes("@ctxkit/source") ||
    JSON.stringify(packed.exports) !== JSON.stringify(withoutSourceCondition(manifest.exports))
  ) {
    problems.push(
      `the packed "exports" are not "exports" without the "@ctxkit/source" condition: set "publishConfig": { "exports": … } to that ${FIX}`,
    );
  }
  for (const [name, range] of Object.entries(packed.dependencies ?? {})) {
    if (String(range).startsWith("workspace:")) problems.push(`dependency ${name} was packed as "${range}"`);
  }
  return problems;
}
