import type { Message } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { countRetained, extractIdentifiers, factsUsedByCalls } from "./extract-facts.js";

const identifiers = (text: string) => [...extractIdentifiers(text)].sort();

describe("extractIdentifiers", () => {
  it("finds paths, dotted, snake_case and camelCase names, ids, dates and long numbers", () => {
    const text =
      "Read /home/user/app/lib/router.ex and src/index.ts, then call Spotter.Repo.get with session_id in createContextManager; " +
      "commit a2898e3, flight HAT136 on 2024-05-23, reservation 9f1c2d4e-77aa-4b1c-9e2f-1234567890ab, order 3482917.";
    expect(identifiers(text)).toEqual(
      [
        "/home/user/app/lib/router.ex",
        "src/index.ts",
        "Spotter.Repo.get",
        "session_id",
        "createContextManager",
        "a2898e3",
        "HAT136",
        "2024-05-23",
        "9f1c2d4e-77aa-4b1c-9e2f-1234567890ab",
        "3482917",
      ].sort(),
    );
  });

  it("leaves out words, line numbers, versions, flags, CSS lengths, closing tags and prose with slashes", () => {
    const text =
      "The Error on line 42: and/or the value 3.14 in version 1.2.13 with --quick; width 0.5rem, </pre> tag, " +
      "python3 base64 e.g. well-known top-level Hello World, timeout 60000, 2>/dev/null.";
    expect(identifiers(text)).toEqual([]);
  });

  it("strips a sentence's full stop and a trailing colon from an identifier", () => {
    expect(identifiers("See mix.exs. Then lib/app.ex: done")).toEqual(["lib/app.ex", "mix.exs"]);
  });
});

const call = (id: string, name: string, args: Record<string, unknown>): Message => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name, arguments: JSON.stringify(args) } }],
});

describe("factsUsedByCalls", () => {
  it("keeps identifiers a call repeats from earlier messages, from argument values but never keys", () => {
    const transcript: Message[] = [
      { role: "system", content: "You work in /repo/root/main with the read_file tool." },
      { role: "user", content: "Fix the bug in src/router.ts, see issue_tracker entry." },
      call("call_1", "read_file", { file_path: "src/router.ts", note: "/repo/root/main" }),
      { role: "tool", tool_call_id: "call_1", content: "export function handleRequest() { return parseRoute(url) }" },
      // `file_path` is a key here and in no earlier message as a value; call_99 is invented; /repo/root/main is the system's.
      { role: "assistant", content: "handleRequest calls parseRoute; the ticket is issue_tracker. Next: call_99 brandNewName." },
    ];
    const facts = factsUsedByCalls(transcript);
    expect(facts.get(2)).toEqual(["src/router.ts"]);
    expect([...(facts.get(4) ?? [])].sort()).toEqual(["handleRequest", "issue_tracker", "parseRoute"]);
  });

  it("drops an identifier that occurred in more than five earlier messages: too common to tell views apart", () => {
    const transcript: Message[] = [
      ...Array.from({ length: 6 }, (): Message => ({ role: "user", content: "about project_config" })),
      { role: "assistant", content: "project_config it is" },
      { role: "user", content: "and rare_value" },
      { role: "assistant", content: "rare_value and project_config" },
    ];
    const facts = factsUsedByCalls(transcript);
    expect(facts.get(6)).toEqual([]);
    expect(facts.get(8)).toEqual(["rare_value"]);
  });
});

describe("countRetained", () => {
  it("counts the facts some view message holds, a placeholder's listed identifiers included", () => {
    const view: Message[] = [
      { role: "user", content: "look at src/router.ts" },
      { role: "tool", tool_call_id: "call_1", content: "[cleared: handleRequest, parseRoute]" },
    ];
    expect(countRetained(["src/router.ts", "handleRequest", "missing_fact"], view)).toBe(2);
    expect(countRetained([], view)).toBe(0);
  });
});
