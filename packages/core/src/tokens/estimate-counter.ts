// A tokenizer-free estimate: no load time, CJK-aware, and a little above an exact count on real text.
import type { TokenCounter } from "./token-counter.js";

// Han, Hiragana, Katakana, Hangul and full-width forms: about one token per character in o200k.
// Compared as code points rather than tested with a pattern, since every character of a text passes here.
function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xffef)
  );
}

// Tokens per character by class, fitted on real agent transcripts against o200k_base: the total
// comes out about 8% above the exact count, and 95% of messages at or above 96% of it. Letters merge
// into long tokens; digits go in groups of at most three; punctuation rarely merges.
// Weights are in twentieths of a token, so sums stay exact integers.
const SCALE = 20;
const LETTER = 5;
const DIGIT = 10;
const WHITESPACE = 4;
const PUNCTUATION = 12;
const CJK_CHARACTER = 20;
const OTHER_PER_UTF8_BYTE = 10;

function weightOf(code: number): number {
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return LETTER;
  if (code >= 0x30 && code <= 0x39) return DIGIT;
  if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d) return WHITESPACE;
  return PUNCTUATION;
}

// Agent text is almost all ASCII, and a session's first view counts tens of millions of characters: the
// ASCII path reads a chunk's UTF-8 bytes four at a time (one native copy, `encodeInto`) and weighs them two
// at a time from a table of every pair of ASCII bytes. A chunk holding anything else is counted character
// by character. The figures are the same either way: the weights are summed as integers in any order.
const CHUNK_UNITS = 1 << 14;

// Made on first count rather than at import (64 KB of pairs), so a process that never estimates pays nothing.
// The tables are constants of the closure that reads them, so where the closure is inlined the optimizer
// knows their lengths and leaves the bounds checks out (module constants would do, but a bundler makes them
// `var`), and its loop weighs four words a turn, so the checks left are paid once per 16 bytes. Together a
// sixth to a fifth off counting a long session's text; most of the rest is `encodeInto` reading the strings
// from memory. Slower, when measured: pairs read through a Uint16Array, the classes counted with bit
// arithmetic on each word, `charCodeAt` for short texts.
interface AsciiPath {
  /** Weight of each ASCII code. */
  readonly single: Uint8Array;
  /** The weights of an all-ASCII `chunk`, or -1 when it holds any other character. */
  readonly weigh: (chunk: string) => number;
}
let asciiPath: AsciiPath | undefined;

function makeAsciiPath(): AsciiPath {
  const single = new Uint8Array(0x80);
  for (let code = 0; code < 0x80; code += 1) single[code] = weightOf(code);
  // Each two-byte value whose bytes are both ASCII: the sum of the two, so either byte order.
  const pair = new Uint8Array(0x10000);
  for (let low = 0; low < 0x80; low += 1) for (let high = 0; high < 0x80; high += 1) pair[low | (high << 8)] = single[low]! + single[high]!;
  // A chunk's UTF-8 bytes (three at most per UTF-16 unit), seen as bytes and as 32-bit words.
  const buffer = new ArrayBuffer(CHUNK_UNITS * 3);
  const bytes = new Uint8Array(buffer);
  const words = new Uint32Array(buffer);
  const encoder = new TextEncoder();
  const weigh = (chunk: string): number => {
    const { written } = encoder.encodeInto(chunk, bytes);
    // Every character of an ASCII text is one byte: more bytes than characters means something else is there.
    if (written !== chunk.length) return -1;
    let weights = 0;
    const wordCount = written >> 2;
    // Byte order does not matter: a word's two halves together hold its four bytes, whichever way round.
    let index = 0;
    for (; index + 4 <= wordCount; index += 4) {
      const first = words[index]!;
      const second = words[index + 1]!;
      const third = words[index + 2]!;
      const fourth = words[index + 3]!;
      weights += pair[first & 0xffff]! + pair[first >>> 16]! + pair[second & 0xffff]! + pair[second >>> 16]!;
      weights += pair[third & 0xffff]! + pair[third >>> 16]! + pair[fourth & 0xffff]! + pair[fourth >>> 16]!;
    }
    for (; index < wordCount; index += 1) weights += pair[words[index]! & 0xffff]! + pair[words[index]! >>> 16]!;
    for (let byte = wordCount << 2; byte < written; byte += 1) weights += single[bytes[byte]!]!;
    return weights;
  };
  return { single, weigh };
}

/**
 * The weights of `text` from `start`, character by character, up to `end` (or one unit past it, to finish
 * a surrogate pair): a surrogate pair is one code point, a lone surrogate one character, as the string
 * iterator would give them. Returns the weights and where it stopped.
 */
function characterWeights(text: string, start: number, end: number, single: Uint8Array): { weights: number; next: number } {
  let weights = 0;
  let index = start;
  for (; index < end; index += 1) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      weights += single[code]!;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        index += 1;
      }
    }
    if (isCjk(code)) weights += CJK_CHARACTER;
    else weights += OTHER_PER_UTF8_BYTE * (code < 0x800 ? 2 : code < 0x10000 ? 3 : 4);
  }
  return { weights, next: index };
}

/** The weights of `text`, in twentieths of a token. */
function weightsOf(text: string): number {
  asciiPath ??= makeAsciiPath();
  const { single, weigh } = asciiPath;
  let weights = 0;
  let start = 0;
  while (start < text.length) {
    const end = Math.min(text.length, start + CHUNK_UNITS);
    const chunkWeights = weigh(start === 0 && end === text.length ? text : text.slice(start, end));
    if (chunkWeights >= 0) {
      weights += chunkWeights;
      start = end;
      continue;
    }
    const counted = characterWeights(text, start, end, single);
    weights += counted.weights;
    start = counted.next;
  }
  return weights;
}

const estimateCounters = new WeakSet<TokenCounter>();

/** Whether `counter` is one `estimateCounter()` made: its figures need no checking. */
export function isEstimateCounter(counter: TokenCounter): boolean {
  return estimateCounters.has(counter);
}

/**
 * Estimates tokens by character class: ASCII letters, digits, whitespace and punctuation each have a
 * weight, a CJK character counts one, and anything else (accented Latin, Cyrillic, emoji) half a token
 * per UTF-8 byte. Rounded up, so a non-empty text is at least one token. Use it where the rank data's
 * load time matters more than exactness; it can fall below an exact count on unusual text (`a1b2c3`).
 */
export function estimateCounter(): TokenCounter {
  const counter: TokenCounter = {
    name: "estimate",
    count(text: string): number {
      return Math.ceil(weightsOf(text) / SCALE);
    },
    // Weights add up character by character, and a newline between two texts pairs with neither: the sum of
    // the parts and the newlines is the joined text's, without copying every message's texts into one.
    countJoined(texts: readonly string[]): number {
      let weights = texts.length > 0 ? WHITESPACE * (texts.length - 1) : 0;
      for (const text of texts) weights += weightsOf(text);
      return Math.ceil(weights / SCALE);
    },
  };
  estimateCounters.add(counter);
  return counter;
}
