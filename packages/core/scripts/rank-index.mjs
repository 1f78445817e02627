// Writes dist/ranks/<encoding>.bin: each rank table with its hash index already built, so Node maps it in with one
// file read instead of hashing 200,000 tokens on the first count. Run by the build (tsup.config.ts onSuccess).
// The layout and the hash are src/tokens/rank-table.ts's (readRankIndex, indexTokens); rank-table.test.ts checks
// that a file written here gives every token its js-tiktoken rank.
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const MAGIC = 0x49524b43;
const VERSION = 1;
const NO_RANK = -1;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
export const ENCODINGS = ["o200k_base", "cl100k_base"];

/** The index file's bytes for a compact rank table ({ tokenCount, table }). */
export function buildRankIndexFile({ tokenCount, table }) {
  const bytes = Buffer.from(table, "base64");
  const lengths = bytes.subarray(0, tokenCount);
  const tokens = bytes.subarray(tokenCount);
  let size = 1;
  while (size < 2 * tokenCount) size *= 2;
  const header = new Int32Array([MAGIC, VERSION, tokenCount, size]);
  const slots = new Int32Array(size);
  const offsets = new Int32Array(tokenCount + 1);
  const bytePairRanks = new Int32Array(65_536).fill(NO_RANK);
  for (let rank = 0; rank < tokenCount; rank++) offsets[rank + 1] = offsets[rank] + lengths[rank];
  for (let rank = 0; rank < tokenCount; rank++) {
    const start = offsets[rank];
    const end = offsets[rank + 1];
    let hash = FNV_OFFSET;
    for (let index = start; index < end; index++) hash = Math.imul(hash ^ tokens[index], FNV_PRIME);
    let slot = (hash ^ (hash >>> 15)) & (size - 1);
    while (slots[slot] !== 0) slot = (slot + 1) & (size - 1);
    slots[slot] = rank + 1;
    if (end - start === 2) bytePairRanks[(tokens[start] << 8) | tokens[start + 1]] = rank;
  }
  // Typed arrays are written in this machine's byte order; the reader checks the magic number before trusting it.
  return Buffer.concat([header, slots, offsets, bytePairRanks].map((array) => Buffer.from(array.buffer)).concat([tokens]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const require = createRequire(import.meta.url);
  const folder = new URL("../dist/ranks/", import.meta.url);
  mkdirSync(folder, { recursive: true });
  for (const encoding of ENCODINGS) {
    const file = buildRankIndexFile(require(`../ranks/${encoding}.cjs`));
    writeFileSync(new URL(`${encoding}.bin`, folder), file);
  }
}
