// The Markdown files the docs tests read: the READMEs, and the contributing guides.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../../", import.meta.url));

/** The root README and every package's, as paths from the repository root. */
export function readmes(): string[] {
  const packages = readdirSync(join(root, "packages")).map((name) => join("packages", name, "README.md"));
  return ["README.md", ...packages].filter((file) => existsSync(join(root, file)));
}

/** CONTRIBUTING.md and every guide in contributing/, as paths from the repository root. */
export function contributingDocuments(): string[] {
  const guides = readdirSync(join(root, "contributing"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join("contributing", name));
  return ["CONTRIBUTING.md", ...guides].filter((file) => existsSync(join(root, file)));
}

/** The design notes in architecture/, as paths from the repository root. */
export function architectureDocuments(): string[] {
  return readdirSync(join(root, "architecture"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => join("architecture", name));
}
