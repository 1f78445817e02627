// Checks a README's loop snippet is the code the loop test runs, so the documented loop is the proven one.
import { readFileSync } from "node:fs";

/**
 * The lines between `// readme:start` and `// readme:end` of a source file (or another `marker`'s), without their
 * common indentation.
 */
export function markedRegion(source: string, marker = "readme"): string {
  const lines = source.split("\n");
  const start = lines.findIndex((line) => line.trim() === `// ${marker}:start`);
  const end = lines.findIndex((line) => line.trim() === `// ${marker}:end`);
  if (start < 0 || end < start) throw new Error(`no // ${marker}:start … // ${marker}:end region`);
  const region = lines.slice(start + 1, end);
  const indent = Math.min(...region.filter((line) => line.trim() !== "").map((line) => line.length - line.trimStart().length));
  return region.map((line) => line.slice(indent)).join("\n");
}

/** Whether the README holds `region` verbatim. */
export function readmeHolds(readmeUrl: URL, region: string): boolean {
  return readFileSync(readmeUrl, "utf8").includes(region);
}
