import { describe, expect, it } from "vitest";
import { parseMessages } from "../messages/parse-message.js";
import { checkToolPairs } from "../units/check-tool-pairs.js";
import { assistantMessage, sampleTurn, systemMessage, toolCallMessage, toolResultMessage, userMessage } from "./message-builders.js";

describe("message builders", () => {
  it("should build messages that pass validation and pair correctly", () => {
    const messages = [
      systemMessage("rules"),
      userMessage("go"),
      toolCallMessage("a", "b"),
      toolResultMessage("b", "2"),
      toolResultMessage("a", "1"),
      assistantMessage("done"),
      ...sampleTurn(1, 50),
    ];
    expect(parseMessages(messages)).toEqual(messages);
    expect(checkToolPairs(messages)).toEqual([]);
  });

  it("should give a sample turn's tool output the requested length", () => {
    expect(String(sampleTurn(7, 300)[2]!.content)).toHaveLength(300);
  });
});
