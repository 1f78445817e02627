import { describe, expect, it } from "vitest";
import { openhandsEvents } from "./openhands-events.js";
import { fixtureText, readError } from "./read-fixture.js";

const text = fixtureText("openhands-output.jsonl");

describe("openhandsEvents", () => {
  it("should build one assistant message per model response, a tool message per observation, and drop recall", () => {
    const { messages, skipped } = openhandsEvents.read({ file: "output.jsonl", text });
    expect(messages).toEqual([
      { role: "system", content: "You are OpenHands agent, a helpful AI assistant." },
      { role: "user", content: "Fix invoice_total rounding in /workspace/billing" },
      {
        role: "assistant",
        content: "Let me look at the test.",
        tool_calls: [
          {
            id: "toolu_H1",
            type: "function",
            function: { name: "execute_bash", arguments: '{"command": "cat tests/test_invoice_total.py"}' },
          },
          {
            id: "toolu_H2",
            type: "function",
            function: { name: "str_replace_editor", arguments: '{"command": "view", "path": "/workspace/billing/invoice.py"}' },
          },
        ],
      },
      {
        role: "tool",
        tool_call_id: "toolu_H1",
        name: "execute_bash",
        content: "def test_invoice_total():\n    assert invoice_total([0.1, 0.2]) == 0.3",
      },
      { role: "tool", tool_call_id: "toolu_H2", name: "str_replace_editor", content: "def invoice_total(lines):\n    return sum(lines)" },
      { role: "user", content: 'Missing required argument "path" in tool call str_replace_editor' },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "toolu_H3", type: "function", function: { name: "finish", arguments: '{"message": "Fixed invoice_total rounding."}' } },
        ],
      },
    ]);
    expect(skipped).toEqual({ "recall action": 1, "recall observation": 1, "agent_state_changed observation": 1 });
  });

  it("should read a pretty-printed record, and name the line of an event it cannot read", () => {
    const record = JSON.parse(text);
    expect(openhandsEvents.read({ file: "record.json", text: JSON.stringify(record, null, 2) }).messages).toHaveLength(7);
    record.history[4].tool_call_metadata.model_response.choices = [];
    const pretty = JSON.stringify(record, null, 2);
    const line = pretty.split("\n").findIndex((entry) => entry.includes('"id": 4,'));
    expect(String(readError(openhandsEvents, "record.json", pretty))).toContain(`record.json:${line}: `);
  });

  it("should refuse a file of several records, naming the second", () => {
    expect(String(readError(openhandsEvents, "output.jsonl", `${text}${text}`))).toContain(
      "output.jsonl:2: the file holds more than one record",
    );
  });

  it("should recognize a record and a bare history", () => {
    const record = JSON.parse(text);
    expect(openhandsEvents.detect({ records: [record] })).toBe(true);
    expect(openhandsEvents.detect({ document: record.history })).toBe(true);
    expect(openhandsEvents.detect({ document: [{ role: "user", content: "hi" }] })).toBe(false);
  });
});
