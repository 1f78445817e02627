import fc from "fast-check";
import { countTokens as countCl100k, encode as encodeCl100k } from "gpt-tokenizer/encoding/cl100k_base";
import { countTokens as countO200k, encode as encodeO200k } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_PIECE_BYTES, MAX_SCAN_CHARS, type TiktokenEncoding, encodeTokens, tiktokenCounter } from "./tiktoken-counter.js";

// gpt-tokenizer is the oracle: it gives tiktoken's counts. An empty disallowed set makes it read
// special-token text as plain text, as our counter does, instead of throwing.
const plainText = { disallowedSpecial: new Set<string>() };
const oracles: Record<TiktokenEncoding, (text: string) => number> = {
  o200k_base: (text) => countO200k(text, plainText),
  cl100k_base: (text) => countCl100k(text, plainText),
};
const encodings: TiktokenEncoding[] = ["o200k_base", "cl100k_base"];
const encoders: Record<TiktokenEncoding, (text: string) => number[]> = {
  o200k_base: (text) => encodeO200k(text, plainText),
  cl100k_base: (text) => encodeCl100k(text, plainText),
};

const fragments = [
  "the",
  " quick",
  "Hello",
  "WORLD",
  "don't",
  "THEY'LL",
  "we're",
  "naïve",
  "café",
  "Ünïcödé",
  "Straße",
  "東京",
  "你好世界",
  "こんにちは",
  "안녕하세요",
  "สวัสดีครับ",
  "Привет",
  "مرحبا",
  "🎉",
  "👩‍💻",
  "🇯🇵",
  "👍🏽",
  "e\u0301",
  "const x = 1;",
  "if (a && b) {",
  "}",
  "=>",
  "// comment",
  '"key": [1, 2.5]',
  "<div>",
  "\\n",
  "https://example.com/a?b=c",
  "0x1F",
  "3.14159",
];

/** Ordinary text: words, punctuation, numbers, whitespace runs, code, accents, CJK and emoji. */
const ordinaryText = fc
  .array(
    fc.oneof(
      { arbitrary: fc.constantFrom(...fragments), weight: 4 },
      { arbitrary: fc.string({ unit: fc.constantFrom(" ", "\n", "\t", "\r\n", "  "), maxLength: 4 }), weight: 2 },
      { arbitrary: fc.integer({ min: 0, max: 10 ** 9 }).map(String), weight: 1 },
      { arbitrary: fc.string({ unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzXYZé"), minLength: 1, maxLength: 24 }), weight: 2 },
      { arbitrary: fc.string({ unit: fc.constantFrom(..."!?.,;:()[]{}<>/\\'\"-_=+*&^%$#@~`|"), maxLength: 4 }), weight: 1 },
      { arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }), weight: 1 },
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

/** Text that is all ASCII (code, words, every control character, whitespace runs): the counter splits it with its ASCII pattern. */
const asciiText = fc
  .array(
    fc.oneof(
      { arbitrary: fc.constantFrom(...fragments.filter((fragment) => !/[^\x00-\x7f]/.test(fragment))), weight: 3 },
      {
        arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)), maxLength: 12 }),
        weight: 3,
      },
      { arbitrary: fc.string({ unit: fc.constantFrom(" ", "\n", "\t", "\r\n", "  ", "\v", "\f"), maxLength: 4 }), weight: 1 },
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(""));

/** A deterministic run of CJK ideographs with no punctuation: one pre-token piece. */
function chineseRun(length: number): string {
  return Array.from({ length }, (_, index) => String.fromCodePoint(0x4e00 + ((index * 7_919) % 20_000))).join("");
}

function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** Whole characters, greedily, while each chunk stays within `maxBytes` of UTF-8. */
function splitOnCharacters(text: string, maxBytes: number): string[] {
  const chunks: string[] = [];
  let chunk = "";
  for (const character of text) {
    if (utf8Length(chunk + character) > maxBytes) {
      chunks.push(chunk);
      chunk = "";
    }
    chunk += character;
  }
  if (chunk !== "") chunks.push(chunk);
  return chunks;
}

function expectWithinOnePercent(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(expected * 0.01);
}

describe.each(encodings)("tiktokenCounter(%s)", (encoding) => {
  const counter = tiktokenCounter(encoding);
  const oracle = oracles[encoding];

  describe("exactness", () => {
    it("should equal tiktoken's count on ordinary text", () => {
      fc.assert(
        fc.property(ordinaryText, (text) => {
          expect(counter.count(text)).toBe(oracle(text));
        }),
        { numRuns: 200 },
      );
    });

    it("should split text that is all ASCII into tiktoken's tokens with the ASCII pattern", () => {
      fc.assert(
        fc.property(asciiText, (text) => {
          expect(encodeTokens(text, encoding)).toEqual(encoders[encoding](text));
          expect(counter.count(text)).toBe(oracle(text));
        }),
        { numRuns: 300 },
      );
    });

    it("should equal tiktoken's count on runs of one repeated character, where merges tie", () => {
      fc.assert(
        fc.property(fc.constantFrom("a", "Z", "é", "中", " ", "-", "7", "😀"), fc.integer({ min: 1, max: 300 }), (character, length) => {
          const text = character.repeat(length);
          expect(counter.count(text)).toBe(oracle(text));
        }),
        { numRuns: 100 },
      );
    });

    it("should count the empty string as 0", () => {
      expect(counter.count("")).toBe(0);
    });
  });

  describe("special tokens", () => {
    it("should count special-token text as plain text instead of throwing", () => {
      const text = "before <|endoftext|> middle <|endofprompt|><|fim_prefix|> after";
      expect(counter.count(text)).toBe(oracle(text));
      // As a special token it would be 1; as plain text `<|endoftext|>` is several.
      expect(counter.count("<|endoftext|>")).toBeGreaterThan(1);
    });
  });

  describe("pieces longer than the cap", () => {
    it("should count a 50,000-letter run within 1% of tiktoken", () => {
      const text = "a".repeat(50_000);
      expectWithinOnePercent(counter.count(text), oracle(text));
    });

    it("should count a 20,000-character Chinese run without punctuation within 1% of tiktoken", () => {
      const text = chineseRun(20_000);
      expectWithinOnePercent(counter.count(text), oracle(text));
    });

    it("should cut a long multi-byte piece only between characters", () => {
      // 1, 2, 3 and 4 UTF-8 bytes in turn, so a cut at a fixed byte offset lands inside a character.
      const text = "aé中𠀀".repeat(Math.ceil((3 * MAX_PIECE_BYTES) / 10));
      const chunks = splitOnCharacters(text, MAX_PIECE_BYTES);
      expect(chunks.length).toBeGreaterThan(2);
      const chunkTotal = chunks.reduce((total, chunk) => total + oracle(chunk), 0);
      expect(counter.count(text)).toBe(chunkTotal);
      expectWithinOnePercent(counter.count(text), oracle(text));
    });

    it("should count a piece of exactly the cap exactly", () => {
      const text = "é".repeat(MAX_PIECE_BYTES / 2);
      expect(utf8Length(text)).toBe(MAX_PIECE_BYTES);
      expect(counter.count(text)).toBe(oracle(text));
    });
  });

  describe("texts longer than one scan", () => {
    it("should count a text of several segments of ordinary prose exactly", () => {
      const prose = "The quick brown fox, naïve as ever, jumps over 3 lazy dogs.\n".repeat(Math.ceil((2.5 * MAX_SCAN_CHARS) / 60));
      for (const encoding of encodings) expect(tiktokenCounter(encoding).count(prose)).toBe(oracles[encoding](prose));
    });

    it("should count one unbroken run of 4.2 million CJK, Cyrillic or Arabic letters without overflowing the stack (regression)", () => {
      for (const letter of ["中", "ж", "ب"]) {
        const run = letter.repeat(4_200_000);
        const count = tiktokenCounter("o200k_base").count(run);
        // Each segment is counted like the chunks of a long piece: within a token per segment of the per-segment sum.
        const perSegment = tiktokenCounter("o200k_base").count(letter.repeat(MAX_SCAN_CHARS));
        const segments = Math.ceil(run.length / MAX_SCAN_CHARS);
        expect(Math.abs(count - (perSegment * run.length) / MAX_SCAN_CHARS)).toBeLessThanOrEqual(segments + perSegment);
        expect(count).toBeGreaterThan(0);
      }
    });
  });

  describe("name", () => {
    it("should name the counter after its encoding", () => {
      expect(counter.name).toBe(`tiktoken:${encoding}`);
    });
  });
});

describe("tiktokenCounter()", () => {
  it("should default to o200k_base", () => {
    expect(tiktokenCounter().name).toBe("tiktoken:o200k_base");
    expect(tiktokenCounter().count("Hello, 世界")).toBe(oracles.o200k_base("Hello, 世界"));
  });
});

describe("loading", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it("should load the rank table on the first count, once per encoding, and not on import", async () => {
    vi.resetModules();
    const requested: string[] = [];
    const original = process.getBuiltinModule.bind(process);
    vi.spyOn(process, "getBuiltinModule").mockImplementation(((id: string) => (requested.push(id), original(id))) as typeof original);
    const fresh = await import("./tiktoken-counter.js");
    const first = fresh.tiktokenCounter("o200k_base");
    const second = fresh.tiktokenCounter("o200k_base");
    expect(requested).toEqual([]);

    first.count("hello");
    const afterFirst = requested.length;
    expect(afterFirst).toBeGreaterThan(0);
    second.count("world");
    expect(requested.length).toBe(afterFirst);

    fresh.tiktokenCounter("cl100k_base").count("hello");
    expect(requested.length).toBeGreaterThan(afterFirst);
  });

  it("should say how to pass the table where the runtime cannot load files, as an edge runtime cannot", async () => {
    vi.resetModules();
    const { getBuiltinModule } = process;
    // What an edge runtime offers: no process.getBuiltinModule, so no file can be read.
    Reflect.deleteProperty(process, "getBuiltinModule");
    try {
      const fresh = await import("./tiktoken-counter.js");
      expect(() => fresh.tiktokenCounter().count("hello")).toThrow(
        /import o200k_base from "@ctxkit\/core\/ranks\/o200k_base"; tiktokenCounter\(\{ ranks: o200k_base \}\)/,
      );
      const { default: o200kTable } = await import("@ctxkit/core/ranks/o200k_base");
      expect(fresh.tiktokenCounter({ ranks: o200kTable }).count("Hello, 世界")).toBe(oracles.o200k_base("Hello, 世界"));
    } finally {
      process.getBuiltinModule = getBuiltinModule;
    }
  });
});

describe("tiktokenCounter({ ranks })", () => {
  it("should count with ranks the caller passes as it does with the rank file it loads itself", async () => {
    const { default: o200kRanks } = await import("js-tiktoken/ranks/o200k_base");
    const passed = tiktokenCounter({ ranks: o200kRanks });
    const loaded = tiktokenCounter("o200k_base");
    for (const text of ["Hello, world!", "東京 is big", "don't stop 🎉", "x".repeat(3_000)]) {
      expect(passed.count(text)).toBe(loaded.count(text));
    }
    expect(passed.name).toBe("tiktoken:o200k_base");
  });

  it("should use the encoding's pre-token pattern with its ranks", async () => {
    const { default: cl100kRanks } = await import("js-tiktoken/ranks/cl100k_base");
    const counter = tiktokenCounter({ encoding: "cl100k_base", ranks: cl100kRanks });
    const text = "The quick brown fox can't jump 123456 times.";
    expect(counter.count(text)).toBe(oracles.cl100k_base(text));
  });

  it("should take the encoding from a rank table, and count as the default counter does", async () => {
    const { default: cl100kTable } = await import("@ctxkit/core/ranks/cl100k_base");
    const counter = tiktokenCounter({ ranks: cl100kTable });
    expect(counter.name).toBe("tiktoken:cl100k_base");
    const text = "The quick brown fox can't jump 123456 times. 東京 🎉";
    expect(counter.count(text)).toBe(tiktokenCounter("cl100k_base").count(text));
  });

  it("should reject a rank table of another encoding than the one named", async () => {
    const { default: cl100kTable } = await import("@ctxkit/core/ranks/cl100k_base");
    expect(() => tiktokenCounter({ encoding: "o200k_base", ranks: cl100kTable })).toThrow(
      /ranks: is the cl100k_base table, not o200k_base's/,
    );
  });

  it("should reject rank data that is neither a table nor a rank file where the counter is made", () => {
    expect(() => tiktokenCounter({ ranks: {} as never })).toThrow(/bpe_ranks.*@ctxkit\/core\/ranks\/o200k_base/);
  });

  it("should reject an unknown encoding by name", () => {
    expect(() => tiktokenCounter("p50k_base" as never)).toThrow(/encoding: unknown encoding "p50k_base"/);
  });
});
