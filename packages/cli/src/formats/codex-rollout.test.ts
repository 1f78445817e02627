import { describe, expect, it } from "vitest";
import { codexRollout } from "./codex-rollout.js";
import { fixtureText, readError } from "./read-fixture.js";

const text = fixtureText("codex-rollout.jsonl");

describe("codexRollout", () => {
  it("should read response items: base instructions first, a message with the calls after it as one response", () => {
    const { messages, skipped } = codexRollout.read({ file: "rollout.jsonl", text });
    expect(messages).toEqual([
      { role: "system", content: "You are Codex, a coding agent." },
      { role: "system", content: "<permissions>workspace-write</permissions>" },
      {
        role: "user",
        content: "<environment_context>/srv/app</environment_context>\nRename build_cache to warm_cache in scripts/deploy_all.sh",
      },
      {
        role: "assistant",
        content: "Looking for build_cache.",
        tool_calls: [
          { id: "call_K1", type: "function", function: { name: "shell", arguments: '{"command":["rg","build_cache"]}' } },
          { id: "call_K2", type: "function", function: { name: "shell", arguments: '{"command":["cat","scripts/deploy_all.sh"]}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_K1", content: "scripts/deploy_all.sh:4:build_cache" },
      { role: "tool", tool_call_id: "call_K2", content: "#!/bin/sh\nbuild_cache --all" },
      { role: "assistant", content: "Renamed build_cache to warm_cache in scripts/deploy_all.sh." },
    ]);
    expect(skipped).toEqual({ "event_msg line": 2, "turn_context line": 1, "reasoning item": 2, "web_search_call item": 1 });
  });

  it("should name the line of an output that is not a string", () => {
    const broken = text.replace('"output":"scripts/deploy_all.sh:4:build_cache"', '"output":{"content":"x"}');
    expect(String(readError(codexRollout, "rollout.jsonl", broken))).toContain("rollout.jsonl:11: ");
  });

  it("should recognize a rollout, and not a Claude Code log", () => {
    const records = text
      .trim()
      .split("\n")
      .slice(0, 5)
      .map((line) => JSON.parse(line));
    expect(codexRollout.detect({ records })).toBe(true);
    expect(codexRollout.detect({ records: [{ type: "user", message: { role: "user", content: "hi" } }] })).toBe(false);
  });
});
