import { describe, expect, it } from "vitest";
import { call, result, user } from "../test/messages.js";
import { shortenForSummarizer, shortenText } from "./shorten-for-summarizer.js";

describe("shortenText", () => {
  it("should keep a text that fits as it is", () => {
    expect(shortenText("short", 10)).toBe("short");
  });

  it("should keep a head and a tail of maxChars code points around a marker", () => {
    const text = `${"a".repeat(50)}${"z".repeat(50)}`;
    expect(shortenText(text, 30)).toBe(`${"a".repeat(20)}\n[… 70 characters not shown …]\n${"z".repeat(10)}`);
  });

  it("should never split a surrogate pair", () => {
    const shortened = shortenText("😀".repeat(40), 10);
    expect(shortened).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    expect(shortened.startsWith("😀".repeat(7))).toBe(true);
  });
});

describe("shortenForSummarizer", () => {
  it("should shorten tool outputs and long call arguments, and nothing else", () => {
    const long = "x".repeat(5_000);
    expect((shortenForSummarizer(result("a", long), 100).content as string).length).toBeLessThan(200);
    const shortenedCall = shortenForSummarizer(call("write_file", ["a"], { path: "a.ts", content: long }), 100);
    expect(shortenedCall.role === "assistant" && shortenedCall.tool_calls![0]!.function.arguments.length).toBeLessThan(200);
    const message = user(long);
    expect(shortenForSummarizer(message, 100)).toBe(message);
  });

  it("should return a short tool message itself, not a copy", () => {
    const message = result("a", "ok");
    expect(shortenForSummarizer(message, 100)).toBe(message);
  });
});
