// Real agent transcripts from ../shared/data/transcripts, when that folder sits beside the repository.
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const repositoryRoot = new URL("../../../", import.meta.url);
const folder = fileURLToPath(new URL("../shared/data/transcripts/", repositoryRoot));

/** Up to `maxLength` characters of the transcripts' raw JSONL, or undefined when they are not here. */
export function readTranscriptText(maxLength: number): string | undefined {
  if (!existsSync(folder)) return undefined;
  const files = readdirSync(folder)
    .filter((file) => file.endsWith(".jsonl"))
    .sort();
  let text = "";
  for (const file of files) {
    if (text.length >= maxLength) break;
    text += readFileSync(`${folder}${file}`, "utf8");
  }
  if (text.length === 0) return undefined;
  // Never end on half of a surrogate pair.
  return text.slice(0, maxLength).replace(/[\ud800-\udbff]$/, "");
}
