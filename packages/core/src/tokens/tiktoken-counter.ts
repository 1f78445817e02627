// Exact tiktoken counts, the rank table loaded lazily once per encoding, in time linear in the text's length.
import { ContextArgumentError } from "../errors.js";
import { MAX_PIECE_BYTES, mergeCount, mergeRanks } from "./bpe-merge.js";
import { type TiktokenEncoding, type TiktokenRankData, checkRankData, getRankLookup } from "./load-rank-table.js";
import { NO_RANK, type RankLookup } from "./rank-table.js";
import { utf8ByteLength, withTokenBound } from "./token-bound.js";
import type { TokenCounter } from "./token-counter.js";

export { MAX_PIECE_BYTES } from "./bpe-merge.js";
export type { TiktokenEncoding, TiktokenRankData, TiktokenRanks } from "./load-rank-table.js";
export type { TiktokenRankTable } from "./rank-table.js";

interface Encoder {
  /** The encoding's pattern; compiled on the first text that is not all ASCII. */
  pattern: RegExp | undefined;
  readonly encoding: TiktokenEncoding;
  readonly asciiPattern: RegExp;
  readonly lookup: RankLookup;
  /** Counts of pieces that needed merging, by their UTF-8 bytes as latin1: real text repeats its words. Cleared when full. */
  readonly mergedCounts: Map<string, number>;
}

export interface TiktokenCounterOptions {
  /** Which encoding; it picks the pre-token pattern. Default: the encoding of `ranks`, else `o200k_base`. */
  readonly encoding?: TiktokenEncoding;
  /**
   * The encoding's rank data. Default: the package's own table, loaded on the first count. Pass it where that
   * cannot load (a bundle, an edge runtime): `import o200k_base from "@ctxkit/core/ranks/o200k_base"`.
   * js-tiktoken's rank files are accepted too, at about 100 ms more load time.
   */
  readonly ranks?: TiktokenRankData;
}

const CONTRACTION = `'(?:[sS]|[tT]|[dD]|[mM]|[lL][lL]|[vV][eE]|[rR][eE])`;

/**
 * tiktoken's pre-token patterns in JavaScript syntax, without captures (faster). cl100k's is the one
 * tiktoken uses today, with `\s+$`; js-tiktoken ships an older, equivalent-in-practice form.
 */
const PATTERNS: Record<TiktokenEncoding, string> = {
  o200k_base: String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:${CONTRACTION})?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:${CONTRACTION})?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  cl100k_base: String.raw`${CONTRACTION}|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s`,
};

/**
 * The same patterns for a text that is all ASCII, where they split it into the same pieces: there `\p{L}` is
 * `A-Za-z`, `\p{Lu}` `A-Z`, `\p{Ll}` `a-z`, `\p{N}` `0-9`, and `\p{Lt}`, `\p{Lm}`, `\p{Lo}` and `\p{M}` hold no
 * character. Compiling the Unicode classes takes milliseconds of a cold start; these take a fraction of one.
 */
const ASCII_PATTERNS: Record<TiktokenEncoding, string> = {
  o200k_base: String.raw`[^\r\nA-Za-z0-9]?[A-Z]*[a-z]+(?:${CONTRACTION})?|[^\r\nA-Za-z0-9]?[A-Z]+[a-z]*(?:${CONTRACTION})?|[0-9]{1,3}| ?[^\sA-Za-z0-9]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  cl100k_base: String.raw`${CONTRACTION}|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]{1,3}| ?[^\sA-Za-z0-9]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s`,
};

/**
 * The most characters one regular-expression scan sees. V8's regex engine keeps a backtracking entry
 * per character of a match, so one unbroken run of millions of letters overflows its stack; longer
 * texts are scanned in segments, cut where a piece boundary is certain whenever the text allows.
 */
export const MAX_SCAN_CHARS = 1 << 17;
// How far back from the segment limit a certain piece boundary is looked for.
const BOUNDARY_SEARCH_CHARS = 4_096;
const WHITESPACE = /\s/;

const MERGED_COUNTS_LIMIT = 20_000;
/** No token is longer: a longer piece is never one token, so it is not looked up whole. */
const MAX_TOKEN_BYTES = 255;
const encoders = new Map<RankLookup, Encoder>();
const NON_ASCII = /[^\x00-\x7f]/;
const utf8 = new TextEncoder();
// The current piece's UTF-8 bytes; grown for a longer piece, so counting allocates nothing per piece.
let pieceBytes = new Uint8Array(4 * MAX_PIECE_BYTES);

function getEncoder(encoding: TiktokenEncoding, lookup: RankLookup): Encoder {
  let encoder = encoders.get(lookup);
  if (encoder === undefined) {
    encoder = { pattern: undefined, encoding, asciiPattern: new RegExp(ASCII_PATTERNS[encoding], "uy"), lookup, mergedCounts: new Map() };
    encoders.set(lookup, encoder);
  }
  return encoder;
}

/** Writes `piece` as UTF-8 into pieceBytes and returns its length in bytes. */
function writePieceBytes(piece: string, isAscii: boolean): number {
  if (pieceBytes.length < 3 * piece.length) pieceBytes = new Uint8Array(3 * piece.length);
  if (isAscii) {
    for (let index = 0; index < piece.length; index++) pieceBytes[index] = piece.charCodeAt(index);
    return piece.length;
  }
  // A lone surrogate becomes U+FFFD, as it does in tiktoken's own UTF-8 encoding.
  return utf8.encodeInto(piece, pieceBytes).written;
}

/** The piece's bytes as a new latin1 string: a flat copy, so a cached key never keeps the text it was cut from alive. */
function latin1Key(length: number): string {
  return String.fromCharCode.apply(null, pieceBytes.subarray(0, length) as unknown as number[]);
}

function countPiece(piece: string, isAscii: boolean, encoder: Encoder): number {
  const { lookup, mergedCounts } = encoder;
  const length = writePieceBytes(piece, isAscii);
  if (length <= MAX_TOKEN_BYTES && lookup.rankOf(pieceBytes, 0, length) !== NO_RANK) return 1;
  if (length > MAX_PIECE_BYTES) return countLongPiece(length, lookup);
  // An ASCII piece is its own latin1 key; a copy is made only when it is stored.
  const key = isAscii ? piece : latin1Key(length);
  let count = mergedCounts.get(key);
  if (count === undefined) {
    count = mergeCount(pieceBytes, 0, length, lookup);
    if (mergedCounts.size >= MERGED_COUNTS_LIMIT) mergedCounts.clear();
    mergedCounts.set(isAscii ? latin1Key(length) : key, count);
  }
  return count;
}

function countLongPiece(length: number, lookup: RankLookup): number {
  // Chunks are merged from pieceBytes in place; mergeCount's scratch is separate, so the bytes stay intact.
  const bytes = pieceBytes;
  let total = 0;
  for (let start = 0; start < length; ) {
    let end = Math.min(start + MAX_PIECE_BYTES, length);
    // Step back over UTF-8 continuation bytes (10xxxxxx) so no character is split.
    while (end < length && ((bytes[end] as number) & 0xc0) === 0x80) end -= 1;
    total += mergeCount(bytes, start, end - start, lookup);
    start = end;
  }
  return total;
}

/**
 * Where the segment starting at `start` ends: before a single space that has text on both sides
 * (every pre-token pattern starts a piece there, so the counts are exact; a newline may join the
 * punctuation before it), or, in a text
 * with no such place near the limit (one huge run of letters), at the limit between two characters,
 * within a token of tiktoken, as a long piece is.
 */
function segmentEnd(text: string, start: number): number {
  const limit = start + MAX_SCAN_CHARS;
  if (limit >= text.length) return text.length;
  for (let index = limit; index > limit - BOUNDARY_SEARCH_CHARS && index > start + 1; index -= 1) {
    if (text[index] === " " && !WHITESPACE.test(text[index - 1]!) && !WHITESPACE.test(text[index + 1] ?? " ")) return index;
  }
  const code = text.charCodeAt(limit - 1);
  // Never between the two halves of a surrogate pair.
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}

function countSegment(text: string, encoder: Encoder): number {
  const isAscii = !NON_ASCII.test(text);
  const pattern = isAscii ? encoder.asciiPattern : (encoder.pattern ??= new RegExp(PATTERNS[encoder.encoding], "uy"));
  let total = 0;
  // Sticky: the pattern covers every character, so each piece starts where the last one ended,
  // and test() saves building a match array per piece.
  pattern.lastIndex = 0;
  for (let start = 0; start < text.length && pattern.test(text); start = pattern.lastIndex) {
    const piece = text.slice(start, pattern.lastIndex);
    total += countPiece(piece, isAscii || !NON_ASCII.test(piece), encoder);
  }
  return total;
}

/**
 * An exact counter for OpenAI's `o200k_base` (the default) or `cl100k_base`. Special-token text such
 * as `<|endoftext|>` counts as plain text. The rank table loads on the first `count()` (a few
 * milliseconds) and is shared by every counter of that encoding in the process. Where it cannot load
 * (a bundle, an edge runtime), pass it: `tiktokenCounter({ ranks: o200k_base })`, imported from
 * `@ctxkit/core/ranks/o200k_base`.
 */
export function tiktokenCounter(options: TiktokenEncoding | TiktokenCounterOptions = "o200k_base"): TokenCounter {
  const given = typeof options === "string" ? { encoding: options } : options;
  const { ranks } = given;
  if (given.encoding !== undefined && given.encoding !== "o200k_base" && given.encoding !== "cl100k_base") {
    throw new ContextArgumentError("tiktokenCounter", [
      { path: "encoding", message: `unknown encoding ${JSON.stringify(given.encoding)}: use "o200k_base" or "cl100k_base"` },
    ]);
  }
  // Checked now, not on the first count: a wrong import should fail where it is written.
  const encoding = (ranks === undefined ? undefined : checkRankData(ranks, given.encoding)) ?? given.encoding ?? "o200k_base";
  let encoder: Encoder | undefined;
  const counter: TokenCounter = {
    name: `tiktoken:${encoding}`,
    count(text: string): number {
      if (text.length === 0) return 0;
      encoder ??= getEncoder(encoding, getRankLookup(encoding, ranks));
      if (text.length <= MAX_SCAN_CHARS) return countSegment(text, encoder);
      let total = 0;
      for (let start = 0; start < text.length; ) {
        const end = segmentEnd(text, start);
        total += countSegment(text.slice(start, end), encoder);
        start = end;
      }
      return total;
    },
  };
  // Every token covers at least one of the text's UTF-8 bytes: a view far under its budget needs no count yet.
  return withTokenBound(counter, utf8ByteLength);
}

/**
 * The token ranks of `text`, as tiktoken's `encode` gives them with special-token text read as plain text, a
 * piece over MAX_PIECE_BYTES cut as `count()` cuts it. Counting never needs them: the tests compare them with
 * js-tiktoken's to prove the rank table and the merge are tiktoken's own.
 */
export function encodeTokens(text: string, options: TiktokenEncoding | TiktokenCounterOptions = "o200k_base"): number[] {
  const { encoding = "o200k_base", ranks } = typeof options === "string" ? { encoding: options } : options;
  const lookup = getRankLookup(encoding, ranks);
  // Split as count() splits it: with the ASCII pattern when the text is all ASCII.
  const pattern = new RegExp(NON_ASCII.test(text) ? PATTERNS[encoding] : ASCII_PATTERNS[encoding], "gu");
  const ranksOut: number[] = [];
  for (const [piece] of text.matchAll(pattern)) {
    const length = writePieceBytes(piece, !NON_ASCII.test(piece));
    for (let start = 0; start < length; ) {
      let end = Math.min(start + MAX_PIECE_BYTES, length);
      while (end < length && ((pieceBytes[end] as number) & 0xc0) === 0x80) end -= 1;
      ranksOut.push(...mergeRanks(pieceBytes, start, end - start, lookup));
      start = end;
    }
  }
  return ranksOut;
}
