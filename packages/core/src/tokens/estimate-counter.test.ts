import fc from "fast-check";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, describe, expect, it, vi } from "vitest";
import { estimateCounter } from "./estimate-counter.js";
import type { TokenCounter } from "./token-counter.js";

const counter = estimateCounter();
const exact = (text: string): number => countTokens(text, { disallowedSpecial: new Set<string>() });

const samples = {
  prose: "The quick brown fox jumps over the lazy dog. It was the best of times, it was the worst of times.",
  code: "export function add(a: number, b: number): number {\n  return a + b; // sum\n}\nconst x = add(1, 2);\n",
  json: '{"id":"call_abc123","type":"function","function":{"name":"read_file","arguments":"{\\"path\\":\\"src/index.ts\\"}"}}',
  chinese: "上下文管理器决定代理记住什么，并在每次调用模型之前把消息放进预算。",
  japanese: "コンテキストマネージャーはエージェントの記憶を管理します。",
  korean: "컨텍스트 관리자는 에이전트가 기억하는 것을 결정합니다.",
  accented: "Ça va très bien, merci. Müller's Straße führt zur Café-Bar. Ñandú, señor.",
  cyrillic: "Менеджер контекста решает, что помнит агент.",
  emoji: "Shipped 🎉🚀 — thanks 👩‍💻👍🏽 see you 🇯🇵",
};
const numbers = "Invoice 2024-11-21: 1,234.56 USD; ids 9876543210, 0x1F2E3D.";
const mixed = [...Object.values(samples), numbers].join("\n");

describe("estimateCounter", () => {
  describe("empty text", () => {
    it("should count the empty string as 0", () => {
      expect(counter.count("")).toBe(0);
    });
  });

  describe("CJK", () => {
    it("should count about one token per CJK character", () => {
      expect(counter.count("你好世界")).toBe(4);
      expect(counter.count("日本語のテキスト")).toBe(8);
      expect(counter.count("中".repeat(1_000))).toBe(1_000);
    });
  });

  describe("ASCII", () => {
    it("should weigh letters, digits, whitespace and punctuation differently", () => {
      expect(counter.count("abcd".repeat(100))).toBe(100);
      expect(counter.count("a")).toBe(1);
      expect(counter.count("hello")).toBe(2);
      expect(counter.count("1234".repeat(100))).toBe(200);
      expect(counter.count(" ".repeat(100))).toBe(20);
      expect(counter.count("{}".repeat(50))).toBe(60);
    });
  });

  describe("other scripts", () => {
    it("should count two UTF-8 bytes of accented Latin, Cyrillic or emoji as one token", () => {
      expect(counter.count("é")).toBe(1);
      expect(counter.count("привет")).toBe(6);
      expect(counter.count("😀😀")).toBe(4);
    });
  });

  describe("against an exact count", () => {
    it.each(Object.entries(samples))("should not fall below 80% of the exact count on %s", (_, text) => {
      expect(counter.count(text)).toBeGreaterThanOrEqual(exact(text) * 0.8);
    });

    it("should not fall below 70% of the exact count on digit- and punctuation-dense text", () => {
      expect(counter.count(numbers)).toBeGreaterThanOrEqual(exact(numbers) * 0.7);
    });

    it("should stay within 0.9 to 1.6 times the exact count on a mixed sample", () => {
      const estimate = counter.count(mixed);
      const reference = exact(mixed);
      expect(estimate).toBeGreaterThanOrEqual(reference * 0.9);
      expect(estimate).toBeLessThanOrEqual(reference * 1.6);
    });
  });

  describe("load", () => {
    afterEach(() => {
      vi.doUnmock("js-tiktoken/ranks/o200k_base");
      vi.doUnmock("js-tiktoken/lite");
      vi.resetModules();
    });

    it("should need no tokenizer data", async () => {
      vi.resetModules();
      const refuse = () => {
        throw new Error("estimateCounter must not load tokenizer data");
      };
      vi.doMock("js-tiktoken/ranks/o200k_base", refuse);
      vi.doMock("js-tiktoken/lite", refuse);
      const fresh = await import("./estimate-counter.js");
      const estimate = fresh.estimateCounter();
      expect(estimate.name).toBe("estimate");
      expect(estimate.count("Hello, 世界")).toBe(counter.count("Hello, 世界"));
    });
  });
});

// The counter as first written, character by character through the string iterator: the faster loop must give its figures.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;
function iteratorEstimate(text: string): number {
  let tokens = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (code < 0x80) {
      const isLetter = (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
      const isWhitespace = code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d;
      tokens += isLetter ? 5 : code >= 0x30 && code <= 0x39 ? 10 : isWhitespace ? 4 : 12;
    } else if (CJK.test(character)) tokens += 20;
    else tokens += 10 * (code < 0x800 ? 2 : code < 0x10000 ? 3 : 4);
  }
  return Math.ceil(tokens / 20);
}

describe("estimateCounter, code point by code point", () => {
  it("should count every text as the string iterator's characters would, lone surrogates and astral characters included", () => {
    const units = fc.oneof(
      fc.constantFrom("\ud83d", "\ude00", "\ud83d\ude00", "\u3040", "\u30ff", "\ud7af", "\uffef", "\uff00", "é", "a", "7", " ", "\n", "。"),
      fc.string({ unit: "binary", maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(units, { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        expect(counter.count(text)).toBe(iteratorEstimate(text));
      }),
      { numRuns: 50 },
    );
    for (const text of [...Object.values(samples), numbers, mixed]) expect(counter.count(text)).toBe(iteratorEstimate(text));
  });
});

// The counter before its ASCII chunks were weighed from a table, UTF-16 unit by unit: the chunked count must give its figures.
function unitByUnitEstimate(text: string): number {
  const isCjk = (code: number) =>
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xffef);
  const weightOf = (code: number) => {
    if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return 5;
    if (code >= 0x30 && code <= 0x39) return 10;
    if (code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0d) return 4;
    return 12;
  };
  let tokens = 0;
  for (let index = 0; index < text.length; index += 1) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      tokens += weightOf(code);
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const low = text.charCodeAt(index + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
        index += 1;
      }
    }
    if (isCjk(code)) tokens += 20;
    else tokens += 10 * (code < 0x800 ? 2 : code < 0x10000 ? 3 : 4);
  }
  return Math.ceil(tokens / 20);
}

describe("estimateCounter, against the unit-by-unit count", () => {
  const units = fc.oneof(
    fc.constantFrom(
      "\ud83d",
      "\ude00",
      "\ud83d\ude00",
      "\u3040",
      "\u30ff",
      "\ud7af",
      "\uffef",
      "\ufffd",
      "é",
      "中",
      "a",
      "Z",
      "7",
      " ",
      "\t",
      "\n",
      "\r",
      "~",
      "\u007f",
      "\u0000",
    ),
    fc.string({ unit: "binary", maxLength: 3 }),
    fc.string({ unit: "grapheme", maxLength: 3 }),
    fc.string({ maxLength: 12 }),
  );

  it("should give the same count for arbitrary strings: ASCII, CJK, astral characters, lone surrogates", () => {
    fc.assert(
      fc.property(fc.array(units, { maxLength: 60 }), (parts) => {
        const text = parts.join("");
        expect(counter.count(text)).toBe(unitByUnitEstimate(text));
      }),
      { numRuns: 300 },
    );
  });

  it("should give the same count for long texts, whatever falls across the edges of the chunks it reads", () => {
    // Texts of tens of thousands of units: a repeated arbitrary piece, with arbitrary characters at arbitrary places.
    fc.assert(
      fc.property(
        fc.array(units, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.array(fc.tuple(fc.nat(), units), { maxLength: 4 }),
        (piece, repeats, inserts) => {
          let text = piece.join("").repeat(repeats);
          for (const [at, inserted] of inserts) {
            const position = text.length === 0 ? 0 : at % text.length;
            text = text.slice(0, position) + inserted + text.slice(position);
          }
          expect(counter.count(text)).toBe(unitByUnitEstimate(text));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("should count a surrogate pair, a CJK character or a lone surrogate the same at every place near a power-of-two offset", () => {
    for (const edge of [1 << 12, 1 << 13, 1 << 14, 1 << 15, 3 << 14]) {
      for (let offset = -3; offset <= 2; offset += 1) {
        for (const character of ["\ud83d\ude00", "中", "\ud83d", "\ude00", "é", "x"]) {
          const text = `${"ab cd ".repeat(Math.ceil((edge + offset) / 6)).slice(0, edge + offset)}${character}${"0 1;".repeat(5_000)}`;
          expect(counter.count(text)).toBe(unitByUnitEstimate(text));
        }
      }
    }
    // Wholly ASCII texts across several chunks, and one that turns to CJK part way through.
    const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join("");
    for (const text of [ascii.repeat(900), `${ascii.repeat(300)}${"中文".repeat(20_000)}${ascii.repeat(300)}`])
      expect(counter.count(text)).toBe(unitByUnitEstimate(text));
  });
});

// The ASCII path weighs whole 16-byte blocks, then 4-byte words, then single bytes: texts of every length
// around those edges, and a character outside ASCII at every place in them, which sends the text the slow way.
describe("estimateCounter, around the ASCII path's blocks and words", () => {
  const ascii = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join("");
  const outside = ["é", "中", "\ud83d\ude00", "\ud83d", "\ude00"];

  it("should give the unit-by-unit count for every ASCII length up to 40, with a character outside ASCII at every place", () => {
    for (let length = 0; length <= 40; length += 1) {
      // Starting at a place that moves with the length, so each place of a word and a block sees different bytes.
      const text = `${ascii}${ascii}`.slice((length * 37) % 128, ((length * 37) % 128) + length);
      expect(counter.count(text)).toBe(unitByUnitEstimate(text));
      for (let place = 0; place <= length; place += 1) {
        for (const character of outside) {
          const inserted = text.slice(0, place) + character + text.slice(place);
          expect(counter.count(inserted)).toBe(unitByUnitEstimate(inserted));
          if (place < length) {
            const replaced = text.slice(0, place) + character + text.slice(place + 1);
            expect(counter.count(replaced)).toBe(unitByUnitEstimate(replaced));
          }
        }
      }
    }
  });

  it("should give the unit-by-unit count for arbitrary ASCII texts of any class mix, alone and joined", () => {
    const character = fc.oneof(
      fc.constantFrom("a", "Z", "q", "0", "9", " ", "\n", "\t", "\r", "\u000b", "\u000c", "\u0000", "\u007f", "@", "[", "`", "{", "/", ":"),
      fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code)),
    );
    // size "max": lengths spread over 0-80, not the few characters fast-check tends to make by default.
    const text = fc.array(character, { maxLength: 80, size: "max" }).map((characters) => characters.join(""));
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 4 }), (one, several) => {
        expect(counter.count(one)).toBe(unitByUnitEstimate(one));
        expect(counter.countJoined!(several)).toBe(unitByUnitEstimate(several.join("\n")));
      }),
      { numRuns: 300 },
    );
  });
});

// The weight tables are filled on the first count, not at import: a fresh module must count right from its first call.
describe("estimateCounter, first call of a fresh module", () => {
  afterEach(() => {
    vi.resetModules();
  });

  it.each([
    ["count, ASCII first", (fresh: TokenCounter) => fresh.count(samples.code), samples.code],
    ["count, CJK first", (fresh: TokenCounter) => fresh.count(samples.chinese), samples.chinese],
    ["countJoined first", (fresh: TokenCounter) => fresh.countJoined!([samples.prose, numbers]), `${samples.prose}\n${numbers}`],
  ])("should give the unit-by-unit count when its first call is %s", async (_, first, text) => {
    vi.resetModules();
    const fresh = (await import("./estimate-counter.js")).estimateCounter();
    expect(first(fresh)).toBe(unitByUnitEstimate(text));
  });
});

describe("estimateCounter.countJoined", () => {
  it("should give what counting the texts joined by newlines gives, whatever their ends hold", () => {
    const piece = fc.oneof(
      fc.constantFrom("", "\ud83d", "\ude00", "\ud83d\ude00", "中", "a", " ", "\n", "é"),
      fc.string({ unit: "binary", maxLength: 6 }),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.array(piece, { maxLength: 6 }).map((parts) => parts.join("")),
          { maxLength: 6 },
        ),
        (texts) => {
          expect(counter.countJoined!(texts)).toBe(counter.count(texts.join("\n")));
        },
      ),
      { numRuns: 300 },
    );
  });
});
