import { describe, expect, it } from "vitest";
import { ContextError } from "../errors.js";
import { ContextLockedError, ContextStoreAccessError, ContextStoreCorruptError, ContextStoreUnavailableError } from "./store-errors.js";

describe("store errors", () => {
  it("should give each its own code, as ContextErrors", () => {
    const errors = [
      new ContextStoreAccessError("/sessions", "not a folder"),
      new ContextLockedError("/s.jsonl", "/s.jsonl.lock", { pid: 7, hostname: "box" }),
      new ContextStoreCorruptError("/s.jsonl", { line: 3 }, "not JSON"),
      new ContextStoreUnavailableError("postgres:public.ctxkit#s", { cause: new Error("ECONNREFUSED") }),
    ];
    expect(errors.map((error) => error.code)).toEqual([
      "CONTEXT_STORE_ACCESS",
      "CONTEXT_LOCKED",
      "CONTEXT_STORE_CORRUPT",
      "CONTEXT_STORE_UNAVAILABLE",
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(ContextError);
  });

  it("should name a journal's line, or a table's row, in one corrupt-store class", () => {
    const journal = new ContextStoreCorruptError("/s.jsonl", { line: 3 }, "not JSON");
    expect(journal).toMatchObject({ file: "/s.jsonl", location: "/s.jsonl", line: 3, seq: undefined, reason: "not JSON" });
    expect(journal.message).toMatch(/corrupt at line 3: not JSON\. Nothing was changed\. Repair or remove that line/);
    const table = new ContextStoreCorruptError("postgres:public.ctxkit#s", { seq: 9 }, "bad role");
    expect(table).toMatchObject({ line: undefined, seq: 9 });
    expect(table.message).toMatch(/unreadable message at seq 9: bad role\. Nothing was changed; repair or delete that row/);
  });

  it("should say who holds a lock and what to do", () => {
    expect(new ContextLockedError("/s.jsonl", "/s.jsonl.lock", { pid: 7, hostname: "box" }).message).toMatch(
      /open in process 7 on box\. Close it there first; .* delete \/s\.jsonl\.lock/,
    );
    expect(new ContextLockedError("/s.jsonl", "/s.jsonl.lock", undefined).message).toMatch(/open in another writer/);
  });

  it("should carry an unavailable store's cause in its message", () => {
    expect(new ContextStoreUnavailableError("db", { cause: new Error("ECONNRESET") }).message).toMatch(/\(ECONNRESET\)/);
  });
});
