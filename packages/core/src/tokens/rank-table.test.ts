import { createRequire } from "node:module";
import fc from "fast-check";
import { Tiktoken } from "js-tiktoken/lite";
import cl100kRanks from "js-tiktoken/ranks/cl100k_base";
import o200kRanks from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { buildRankIndexFile } from "../../scripts/rank-index.mjs";
import { MAX_PIECE_BYTES } from "./bpe-merge.js";
import type { TiktokenEncoding } from "./load-rank-table.js";
import { type RankIndex, type TiktokenRankTable, createRankLookup, indexRankTable, readRankIndex } from "./rank-table.js";
import { encodeTokens } from "./tiktoken-counter.js";

const require = createRequire(import.meta.url);

const encodings: TiktokenEncoding[] = ["o200k_base", "cl100k_base"];
const tiktokenRanks = { o200k_base: o200kRanks, cl100k_base: cl100kRanks };
const tables: Record<TiktokenEncoding, TiktokenRankTable> = {
  o200k_base: require("@ctxkit/core/ranks/o200k_base"),
  cl100k_base: require("@ctxkit/core/ranks/cl100k_base"),
};

/** Every token of js-tiktoken's rank file, as bytes, with its rank. */
function tiktokenTokens(encoding: TiktokenEncoding): Array<[Uint8Array, number]> {
  const tokens: Array<[Uint8Array, number]> = [];
  for (const line of tiktokenRanks[encoding].bpe_ranks.split("\n")) {
    const [, first, ...encoded] = line.split(" ");
    encoded.forEach((token, index) =>
      tokens.push([Uint8Array.from(atob(token), (character) => character.charCodeAt(0)), Number(first) + index]),
    );
  }
  return tokens;
}

describe.each(encodings)("the %s rank table", (encoding) => {
  const expectEveryTokenRanked = (index: RankIndex): void => {
    const lookup = createRankLookup(index);
    const tokens = tiktokenTokens(encoding);
    let wrong = 0;
    for (const [bytes, rank] of tokens) if (lookup.rankOf(bytes, 0, bytes.length) !== rank) wrong += 1;
    expect(wrong).toBe(0);
    expect(tables[encoding].tokenCount).toBe(tokens.length);
  };

  it("should give every token of js-tiktoken's rank file its rank, hashed at load", () => {
    expectEveryTokenRanked(indexRankTable(tables[encoding]));
  });

  it("should give every token its rank from the index file the build writes", () => {
    const file = buildRankIndexFile(tables[encoding]);
    const index = readRankIndex(new Uint8Array(file));
    expect(index).toBeDefined();
    expectEveryTokenRanked(index!);
  });

  it("should find no rank for bytes that are no token", () => {
    const lookup = createRankLookup(indexRankTable(tables[encoding]));
    const notAToken = new TextEncoder().encode("zqxjzqxjzqxj-not-a-token");
    expect(lookup.rankOf(notAToken, 0, notAToken.length)).toBe(-1);
  });
});

describe("readRankIndex", () => {
  it("should refuse bytes that are not an index file", () => {
    expect(readRankIndex(new Uint8Array(64))).toBeUndefined();
    expect(readRankIndex(new Uint8Array(3))).toBeUndefined();
  });
});

/**
 * Unicode of every kind: graphemes, any code point, CJK and Thai, and long runs of one character. Parts are joined
 * by newlines, which end every pre-token, so no piece grows past MAX_PIECE_BYTES, where counting cuts on purpose.
 */
function hostileText(): fc.Arbitrary<string> {
  const run = fc
    .tuple(fc.constantFrom("a", "Z", "7", " ", "-", "é", "中", "ก", "😀", "\n"), fc.integer({ min: 1, max: MAX_PIECE_BYTES / 2 }))
    .map(([character, bytes]) => character.repeat(Math.max(1, Math.floor(bytes / new TextEncoder().encode(character).length))));
  return fc
    .array(
      fc.oneof(
        fc.string({ unit: "grapheme", maxLength: 12 }),
        fc.string({ unit: "binary", maxLength: 12 }),
        fc.string({ unit: fc.constantFrom(..."上下文管理器决定代理记住什么สวัสดีครับ"), maxLength: 40 }),
        fc.constantFrom("don't", "THEY'LL", " <|endoftext|>", "\r\n\r\n", "  \t", "1234567", "naïve café"),
        { arbitrary: run, weight: 1 },
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join("\n"));
}

describe.each(encodings)("encodeTokens(%s) against js-tiktoken", (encoding) => {
  const reference = new Tiktoken(tiktokenRanks[encoding]);

  it("should encode generated text, unicode and long runs included, to js-tiktoken's tokens", () => {
    fc.assert(
      fc.property(hostileText(), (text) => {
        expect(encodeTokens(text, encoding)).toEqual(reference.encode(text, [], []));
      }),
      { numRuns: 100 },
    );
  });
});
