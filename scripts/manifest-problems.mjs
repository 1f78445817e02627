// What a published package.json must carry, so that a new package cannot ship without it.
const REPOSITORY_URL = "git+https://github.com/ctxkit/ctxkit.git";

/** @returns {string[]} one line per problem; `packed` is the package.json inside the tarball. */
export function manifestProblems(folder, manifest, packed) {
  const problems = [];
  if (manifest.license !== "MIT") problems.push(`"license" should be "MIT"`);
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0) problems.push(`"keywords" is missing`);
  if (typeof manifest.homepage !== "string") problems.push(`"homepage" is missing`);
  if (typeof manifest.bugs?.url !== "string") problems.push(`"bugs.url" is missing`);
  const repository = manifest.repository;
  if (repository?.type !== "git" || repository.url !== REPOSITORY_URL || repository.directory !== `packages/${folder}`) {
    problems.push(`"repository" should be { "type": "git", "url": "${REPOSITORY_URL}", "directory": "packages/${folder}" }`);
  }
  // The workspace-only condition points into src/, which is not packed: publishConfig.exports replaces the map on pack.
  if (JSON.stringify(packed.exports ?? {}).includes("@ctxkit/source")) {
    problems.push(`the packed "exports" still has the "@ctxkit/source" condition: add "publishConfig": { "exports": … } without it`);
  }
  for (const [name, range] of Object.entries(packed.dependencies ?? {})) {
    if (String(range).startsWith("workspace:")) problems.push(`dependency ${name} was packed as "${range}"`);
  }
  return problems;
}
