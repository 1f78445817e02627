import { describe, expect, it } from "vitest";
import { sessionIdProblem } from "./session-id.js";

describe("sessionIdProblem", () => {
  it("should accept any well-formed id, emoji and other scripts included", () => {
    for (const id of ["chat-42", "東京", "👩‍💻", "a b\tc", "\uFFFD"]) expect(sessionIdProblem(id)).toBeUndefined();
  });

  it("should refuse a NUL and a lone surrogate of either half, naming where", () => {
    expect(sessionIdProblem("a\u0000b")).toMatch(/NUL/);
    expect(sessionIdProblem("ab\uD83D")).toMatch(/index 2/);
    expect(sessionIdProblem("\uDE00x")).toMatch(/index 0/);
    expect(sessionIdProblem("x\uDE00\uD83D")).toMatch(/index 1/);
  });
});
