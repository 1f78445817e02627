import { describe, expect, it } from "vitest";
import { createContextManager } from "../engine/create-context-manager.js";
import type { Message } from "../messages/message.js";
import { MemoryMessageStore } from "../store/memory-message-store.js";
import { HistorySync } from "./history-sync.js";

const createManager = () => createContextManager({ store: new MemoryMessageStore(), tokenizer: "estimate" });

const turn: Message[] = [
  { role: "user", content: "continue" },
  { role: "assistant", content: "ok" },
];

describe("HistorySync", () => {
  it("should add only what follows the messages already seen", async () => {
    const manager = await createManager();
    const sync = new HistorySync(manager);
    expect(await sync.addPrompt(turn)).toBe(2);
    expect(await sync.addPrompt([...turn, { role: "user", content: "next" }])).toBe(1);
    expect(await manager.getMessages()).toHaveLength(3);
  });

  it("should add a repeated message sent alone, since only the new messages were sent (regression)", async () => {
    const manager = await createManager();
    const sync = new HistorySync(manager);
    await sync.addPrompt(turn);
    expect(await sync.addPrompt([{ role: "user", content: "continue" }])).toBe(1);
    expect(await manager.getMessages()).toHaveLength(3);
  });

  it("should not add a resumed history again when the caller re-sends it whole", async () => {
    const manager = await createManager();
    await manager.setMessages([{ role: "system", content: "be terse" }, ...turn]);
    const sync = new HistorySync(manager);
    expect(await sync.addPrompt([...turn, { role: "user", content: "more" }])).toBe(1);
  });

  it("should never add system messages, which travel beside the view", async () => {
    const manager = await createManager();
    const sync = new HistorySync(manager);
    await sync.addPrompt([{ role: "system", content: "be terse" }, ...turn]);
    expect((await manager.getMessages()).map((message) => message.role)).toEqual(["user", "assistant"]);
  });

  it("should recognise a response echoed back with other providerOptions and argument spacing", async () => {
    const manager = await createManager();
    const sync = new HistorySync(manager);
    const call = { id: "c", type: "function" as const, function: { name: "f", arguments: '{"a":1}' } };
    await sync.addPrompt([{ role: "user", content: "go" }]);
    await sync.addResponse([{ role: "assistant", content: null, tool_calls: [call] }]);
    const echo = {
      role: "assistant",
      content: null,
      tool_calls: [{ ...call, function: { name: "f", arguments: '{ "a": 1 }' } }],
      providerOptions: { x: {} },
    } as Message;
    expect(await sync.addPrompt([{ role: "user", content: "go" }, echo, { role: "tool", tool_call_id: "c", content: "1" }])).toBe(1);
  });

  // (regression) Switching from new-only input to the whole conversation added the whole history a second time.
  it("should add only the new message when a caller switches from new messages only to the whole conversation", async () => {
    const manager = await createManager();
    const sync = new HistorySync(manager);
    await sync.addPrompt([{ role: "user", content: "one" }]);
    await sync.addResponse([{ role: "assistant", content: "1" }]);
    await sync.addPrompt([{ role: "user", content: "two" }]);
    await sync.addResponse([{ role: "assistant", content: "2" }]);
    const whole: Message[] = [
      { role: "user", content: "one" },
      { role: "assistant", content: "1" },
      { role: "user", content: "two" },
      { role: "assistant", content: "2" },
      { role: "user", content: "three" },
    ];
    expect(await sync.addPrompt(whole)).toBe(1);
    expect((await manager.getMessages()).map((message) => message.content)).toEqual(["one", "1", "two", "2", "three"]);
  });

  it("should add the new messages when a caller switches from the whole conversation to new messages only, and back", async () => {
    const manager = await createManager();
    const sync = new HistorySync(manager);
    await sync.addPrompt(turn);
    expect(await sync.addPrompt([{ role: "user", content: "next" }])).toBe(1);
    await sync.addResponse([{ role: "assistant", content: "done" }]);
    expect(await sync.addPrompt([...turn, { role: "user", content: "next" }, { role: "assistant", content: "done" }])).toBe(0);
    expect(await manager.getMessages()).toHaveLength(4);
  });

  it("should read the manager again after forget, as after a failed call's turn was taken out", async () => {
    const manager = await createManager();
    const sync = new HistorySync(manager);
    await sync.addPrompt(turn);
    await manager.setMessages([]);
    sync.forget();
    expect(await sync.addPrompt(turn)).toBe(2);
  });
});
