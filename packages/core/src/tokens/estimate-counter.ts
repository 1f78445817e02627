// A tokenizer-free estimate: no load time, CJK-aware, and a little above an exact count on real text.
import type { TokenCounter } from "./token-counter.js";

// Han, Hiragana, Katakana, Hangul and full-width forms: about one token per character in o200k.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

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

/**
 * Estimates tokens by character class: ASCII letters, digits, whitespace and punctuation each have a
 * weight, a CJK character counts one, and anything else (accented Latin, Cyrillic, emoji) half a token
 * per UTF-8 byte. Rounded up, so a non-empty text is at least one token. Use it where the rank data's
 * load time matters more than exactness; it can fall below an exact count on unusual text (`a1b2c3`).
 */
export function estimateCounter(): TokenCounter {
  return {
    name: "estimate",
    count(text: string): number {
      let tokens = 0;
      for (const character of text) {
        const code = character.codePointAt(0) ?? 0;
        if (code < 0x80) tokens += weightOf(code);
        else if (CJK.test(character)) tokens += CJK_CHARACTER;
        else tokens += OTHER_PER_UTF8_BYTE * (code < 0x800 ? 2 : code < 0x10000 ? 3 : 4);
      }
      return Math.ceil(tokens / SCALE);
    },
  };
}
