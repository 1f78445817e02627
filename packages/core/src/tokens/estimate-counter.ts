// A tokenizer-free estimate: no load time, CJK-aware, and never far below an exact count.
import type { TokenCounter } from "./token-counter.js";

// Han, Hiragana, Katakana, Hangul and full-width forms: about one token per character in o200k.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/**
 * Estimates tokens as: ASCII bytes / 4, one per CJK character, and UTF-8 bytes / 2 for anything
 * else (accented Latin, Cyrillic, emoji). Rounded up, so a non-empty text is at least one token.
 */
export function estimateCounter(): TokenCounter {
  return {
    name: "estimate",
    count(text: string): number {
      let asciiBytes = 0;
      let cjk = 0;
      let otherBytes = 0;
      for (const character of text) {
        const code = character.codePointAt(0) ?? 0;
        if (code < 0x80) asciiBytes += 1;
        else if (CJK.test(character)) cjk += 1;
        else otherBytes += code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      }
      return Math.ceil(asciiBytes / 4 + cjk + otherBytes / 2);
    },
  };
}
