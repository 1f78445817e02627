// An encoding's token → rank lookup: a hash table over the tokens' bytes, read from a prebuilt index or built from a table.

/**
 * A compact rank table, as `@ctxkit/core/ranks/o200k_base` exports it: `table` is base64 of one length byte
 * per token, then the tokens' bytes, both in rank order (rank 0 first). Made by the package's
 * `scripts/build-rank-tables.mjs` from js-tiktoken's rank files.
 */
export interface TiktokenRankTable {
  readonly encoding: string;
  readonly tokenCount: number;
  readonly table: string;
}

/** What BPE needs from an encoding's ranks: the rank of a run of bytes, and of every two-byte token at once. */
export interface RankLookup {
  /** The rank of `bytes[start..end)` as one token, or NO_RANK. */
  rankOf(bytes: Uint8Array, start: number, end: number): number;
  /** Rank of each two-byte token at `first << 8 | second`, or NO_RANK: BPE's first round, without hashing. */
  readonly bytePairRanks: Int32Array;
}

/**
 * The arrays behind a lookup. `slots` is an open-addressing table (linear probing, at most half full) of
 * rank + 1 at the FNV-1a hash of the token's bytes, 0 for empty; `offsets[rank]` is where a token starts in
 * `tokens`. `scripts/rank-index.mjs` lays out the same arrays in a file, so a build can skip hashing.
 */
export interface RankIndex {
  readonly slots: Int32Array;
  readonly offsets: Int32Array;
  readonly bytePairRanks: Int32Array;
  readonly tokens: Uint8Array;
}

export const NO_RANK = -1;
/** The first four bytes of an index file, "CKRI" read as a little-endian integer; the version follows. */
export const RANK_INDEX_MAGIC = 0x49524b43;
export const RANK_INDEX_VERSION = 1;
const HEADER_INTEGERS = 4;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export function createRankLookup({ slots, offsets, bytePairRanks, tokens }: RankIndex): RankLookup {
  const mask = slots.length - 1;
  return {
    bytePairRanks,
    rankOf(bytes, start, end) {
      const length = end - start;
      let hash = FNV_OFFSET;
      for (let index = start; index < end; index++) hash = Math.imul(hash ^ (bytes[index] as number), FNV_PRIME);
      for (let slot = (hash ^ (hash >>> 15)) & mask; ; slot = (slot + 1) & mask) {
        const entry = slots[slot] as number;
        if (entry === 0) return NO_RANK;
        const tokenStart = offsets[entry - 1] as number;
        if ((offsets[entry] as number) - tokenStart !== length) continue;
        let index = 0;
        while (index < length && tokens[tokenStart + index] === bytes[start + index]) index++;
        if (index === length) return entry - 1;
      }
    },
  };
}

/** Hashes every token into a new index: one pass over the tokens' bytes (tens of milliseconds for o200k_base). */
export function indexTokens(tokens: Uint8Array, lengths: Uint8Array): RankIndex {
  const count = lengths.length;
  const offsets = new Int32Array(count + 1);
  for (let rank = 0; rank < count; rank++) offsets[rank + 1] = (offsets[rank] as number) + (lengths[rank] as number);
  if (offsets[count] !== tokens.length)
    throw new Error(`the rank table holds ${tokens.length} token bytes where its lengths add up to ${offsets[count]}`);
  let size = 1;
  while (size < 2 * count) size *= 2;
  const mask = size - 1;
  const slots = new Int32Array(size);
  const bytePairRanks = new Int32Array(65_536).fill(NO_RANK);
  for (let rank = 0; rank < count; rank++) {
    const start = offsets[rank] as number;
    const end = offsets[rank + 1] as number;
    let hash = FNV_OFFSET;
    for (let index = start; index < end; index++) hash = Math.imul(hash ^ (tokens[index] as number), FNV_PRIME);
    let slot = (hash ^ (hash >>> 15)) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = rank + 1;
    if (end - start === 2) bytePairRanks[((tokens[start] as number) << 8) | (tokens[start + 1] as number)] = rank;
  }
  return { slots, offsets, bytePairRanks, tokens };
}

/** Builds the index from a compact table: one `atob`, then a pass over its bytes. */
export function indexRankTable({ tokenCount, table }: TiktokenRankTable): RankIndex {
  const decoded = atob(table);
  const bytes = new Uint8Array(decoded.length);
  for (let index = 0; index < decoded.length; index++) bytes[index] = decoded.charCodeAt(index);
  return indexTokens(bytes.subarray(tokenCount), bytes.subarray(0, tokenCount));
}

/**
 * Views a prebuilt index file (`scripts/rank-index.mjs`) without copying or hashing: a header of four
 * little-endian integers (magic, version, token count, slot count), then slots, offsets, byte-pair ranks and
 * token bytes. Returns undefined when the bytes are not such a file, or this machine reads integers the other way.
 */
export function readRankIndex(file: Uint8Array): RankIndex | undefined {
  if (file.byteOffset % 4 !== 0) file = file.slice();
  if (file.byteLength < 4 * HEADER_INTEGERS) return undefined;
  const header = new Int32Array(file.buffer, file.byteOffset, HEADER_INTEGERS);
  const [magic, version, tokenCount = 0, slotCount = 0] = header;
  if (magic !== RANK_INDEX_MAGIC || version !== RANK_INDEX_VERSION) return undefined;
  let offset = file.byteOffset + 4 * HEADER_INTEGERS;
  const take = (length: number): Int32Array => {
    const view = new Int32Array(file.buffer, offset, length);
    offset += 4 * length;
    return view;
  };
  const slots = take(slotCount);
  const offsets = take(tokenCount + 1);
  const bytePairRanks = take(65_536);
  const tokens = new Uint8Array(file.buffer, offset, offsets[tokenCount]);
  return { slots, offsets, bytePairRanks, tokens };
}

/**
 * An index from a js-tiktoken rank file (`{ bpe_ranks }`: lines of `<label> <first rank> <base64 token> …`).
 * Slower (a base64 decode per token), kept for callers who pass js-tiktoken's files. Ranks must run 0, 1, 2, ….
 */
export function indexTiktokenRanks(bpeRanks: string): RankIndex {
  const tokens: string[] = [];
  for (const line of bpeRanks.split("\n")) {
    const fields = line.split(" ");
    const firstRank = Number.parseInt(fields[1] ?? "", 10);
    if (firstRank !== tokens.length)
      throw new Error(`bpe_ranks jumps from rank ${tokens.length} to ${fields[1]}; expected contiguous ranks`);
    for (let index = 2; index < fields.length; index++) tokens.push(atob(fields[index] ?? ""));
  }
  const lengths = new Uint8Array(tokens.length);
  const joined = tokens.join("");
  const bytes = new Uint8Array(joined.length);
  for (let index = 0; index < joined.length; index++) bytes[index] = joined.charCodeAt(index);
  tokens.forEach((token, rank) => {
    if (token.length === 0 || token.length > 255) throw new Error(`bpe_ranks token ${rank} is ${token.length} bytes; expected 1 to 255`);
    lengths[rank] = token.length;
  });
  return indexTokens(bytes, lengths);
}
