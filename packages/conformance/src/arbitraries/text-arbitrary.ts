// Message text as real sessions have it: prose and code mixed with CJK, emoji and other scripts.
import fc from "fast-check";

/**
 * Fragments chosen for what breaks naive code: CJK has no spaces, emoji are surrogate pairs and ZWJ
 * sequences, combining marks must stay on their base, right-to-left and Thai have no word breaks.
 */
const TEXT_FRAGMENTS = [
  "Hello",
  "the build failed",
  "Please fix the failing test in src/index.ts.",
  "const total = items.reduce((sum, item) => sum + item.price, 0);",
  '{"status":"ok","count":3}',
  "你好，世界",
  "请帮我修复这个错误",
  "日本語のテキストです",
  "한국어 문장",
  "ＡＢＣ１２３",
  "Привет, мир",
  "مرحبا بالعالم",
  "שלום עולם",
  "สวัสดีครับ",
  "😀",
  "👩‍💻",
  "🇯🇵",
  "👍🏽",
  "e\u0301",
  "Z\u0351\u0360\u0324",
  "\n",
  "\r\n",
  "\t",
  " ",
] as const;

export interface TextArbitraryOptions {
  /** Most fragments joined into one text. Default 8. */
  readonly maxFragments?: number;
}

/** Ordinary text mixed with CJK, emoji (surrogate pairs, ZWJ sequences), combining marks and newlines. */
export function messageTextArbitrary(options: TextArbitraryOptions = {}): fc.Arbitrary<string> {
  const fragment = fc.oneof(
    { arbitrary: fc.constantFrom(...TEXT_FRAGMENTS), weight: 4 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }), weight: 1 },
    { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
  );
  return fc.array(fragment, { maxLength: options.maxFragments ?? 8 }).map((fragments) => fragments.join(""));
}
