import { AdapterInputError } from "@ctxkit/core/kit";
import { AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { fromLangchainMessage, fromLangchainMessages } from "./from-langchain-messages.js";
import { DEVELOPER_ROLE_HINT, toLangchainMessage } from "./to-langchain-messages.js";

describe("fromLangchainMessages", () => {
  it("should keep a call's arguments exactly as the model wrote them, spacing and all", () => {
    const call = { id: "call_1", type: "function" as const, function: { name: "grep", arguments: '{ "pattern": "x",  "n": 1 }' } };
    const sent = toLangchainMessage({ role: "assistant", content: null, tool_calls: [call] });
    expect((sent as AIMessage).tool_calls?.[0]?.args).toEqual({ pattern: "x", n: 1 });
    expect(fromLangchainMessage(sent)).toEqual({ role: "assistant", content: null, tool_calls: [call] });
  });

  it("should read arguments from args when a middleware changed them after the model wrote them", () => {
    const message = new AIMessage({
      content: "",
      tool_calls: [{ id: "call_1", name: "grep", args: { pattern: "y" }, type: "tool_call" }],
      additional_kwargs: { tool_calls: [{ id: "call_1", type: "function", function: { name: "grep", arguments: '{ "pattern": "x" }' } }] },
    });
    expect(fromLangchainMessage(message)).toMatchObject({ tool_calls: [{ function: { arguments: '{"pattern":"y"}' } }] });
  });

  it("should keep an invalid call, with its raw text, in the order the model made the calls", () => {
    const message = new AIMessage({
      content: "",
      tool_calls: [{ id: "call_2", name: "read_file", args: { path: "b" }, type: "tool_call" }],
      invalid_tool_calls: [{ id: "call_1", name: "bash", args: '{"cmd": "ls', error: "Unterminated string", type: "invalid_tool_call" }],
      additional_kwargs: {
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "bash", arguments: '{"cmd": "ls' } },
          { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"path":"b"}' } },
        ],
      },
    });
    expect(fromLangchainMessage(message)).toEqual({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "bash", arguments: '{"cmd": "ls' } },
        { id: "call_2", type: "function", function: { name: "read_file", arguments: '{"path":"b"}' } },
      ],
    });
  });

  it("should read a developer message from ChatOpenAI's role hint, and write it back", () => {
    const message = new SystemMessage({ content: "Use tabs.", additional_kwargs: { ...DEVELOPER_ROLE_HINT } });
    expect(fromLangchainMessage(message)).toEqual({ role: "developer", content: "Use tabs." });
    expect(toLangchainMessage({ role: "developer", content: "Use tabs." }).additional_kwargs).toEqual(DEVELOPER_ROLE_HINT);
  });

  it("should read images in LangChain's standard block and its image_url block as image_url parts", () => {
    const message = new HumanMessage({
      content: [
        { type: "text", text: "Compare:" },
        { type: "image", url: "https://example.com/a.png" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "image_url", image_url: "https://example.com/b.png" },
      ],
    });
    expect(fromLangchainMessage(message).content).toEqual([
      { type: "text", text: "Compare:" },
      { type: "image_url", image_url: { url: "https://example.com/a.png" } },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      { type: "image_url", image_url: { url: "https://example.com/b.png" } },
    ]);
  });

  it("should keep reasoning blocks and leave out blocks that restate tool_calls", () => {
    const message = new AIMessage({
      content: [
        { type: "reasoning", reasoning: "The file is small." },
        { type: "tool_call", id: "call_1", name: "read_file", args: { path: "a" } },
      ],
      tool_calls: [{ id: "call_1", name: "read_file", args: { path: "a" }, type: "tool_call" }],
    });
    expect(fromLangchainMessage(message)).toMatchObject({ content: [{ type: "reasoning", reasoning: "The file is small." }] });
  });

  it("should read a tool result's error status, and serialized and plain messages alike", () => {
    const result = new ToolMessage({ content: "ENOENT", tool_call_id: "call_1", status: "error" });
    const expected = { role: "tool", content: "ENOENT", tool_call_id: "call_1", is_error: true };
    expect(fromLangchainMessages([result])).toEqual([expected]);
    expect(fromLangchainMessages(JSON.parse(JSON.stringify([result])))).toEqual([expected]);
    expect(fromLangchainMessages([{ type: "tool", content: "ENOENT", tool_call_id: "call_1", status: "error" }])).toEqual([expected]);
    expect(fromLangchainMessages([{ role: "user", content: "Hi." }])).toEqual([{ role: "user", content: "Hi." }]);
  });

  it("should refuse a message type ctxkit has no place for, naming the message and the field", () => {
    const read = () => fromLangchainMessages([new HumanMessage("Hi."), new ChatMessage("Hi.", "function")]);
    expect(read).toThrow(AdapterInputError);
    expect(read).toThrow(/entry 1, field "type": a "function role" message is not supported/);
  });

  it("should read a generic ChatMessage by the role it names", () => {
    expect(fromLangchainMessages([new ChatMessage("Hi.", "user"), new ChatMessage("Be brief.", "developer")])).toEqual([
      { role: "user", content: "Hi." },
      { role: "developer", content: "Be brief." },
    ]);
  });

  it("should refuse a tool status that is neither success nor error", () => {
    expect(() => fromLangchainMessages([{ type: "tool", content: "x", tool_call_id: "call_1", status: "done" }])).toThrow(
      AdapterInputError,
    );
  });
});
