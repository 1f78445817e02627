import { createSimpleContext } from "@ctxkit/context-simple";
import { checkToolPairs } from "@ctxkit/core/kit";
import { describe, expect, it } from "vitest";
import type { AgentInputItem, AgentsSession } from "./agent-input-item.js";
import { fromAgentInputItems } from "./agent-items.js";
import { CtxkitSession } from "./ctxkit-session.js";

function turn(index: number): AgentInputItem[] {
  return [
    { role: "user", content: `question ${index}` },
    { type: "reasoning", id: `rs_${index}`, content: [{ type: "input_text", text: "thinking" }] },
    { type: "function_call", callId: `call_${index}`, name: "search", arguments: `{"q":${index}}`, status: "completed" },
    { type: "function_call_result", callId: `call_${index}`, name: "search", status: "completed", output: "result ".repeat(60) },
    { role: "assistant", status: "completed", content: [{ type: "output_text", text: `answer ${index}` }] },
  ];
}

describe("CtxkitSession", () => {
  it("should give back the items it was given, in the agents' shape", async () => {
    const session: AgentsSession = new CtxkitSession({ manager: createSimpleContext({ tokenizer: "estimate" }), sessionId: "s-1" });
    await session.addItems(turn(1));
    expect(await session.getSessionId()).toBe("s-1");
    expect(await session.getItems()).toEqual(turn(1));
    // The last two items would start with a result whose call is cut off: that partial unit is dropped.
    expect(await session.getItems(2)).toEqual(turn(1).slice(-1));
    expect(await session.getItems(3)).toEqual(turn(1).slice(-3));
  });

  it("should return the view while the manager keeps the whole history", async () => {
    const manager = createSimpleContext({ maxTokens: 600, tokenizer: "estimate" });
    const session = new CtxkitSession({ manager });
    for (let index = 0; index < 8; index += 1) await session.addItems(turn(index));
    const items = await session.getItems();
    expect(items.length).toBeLessThan(8 * 5);
    expect(items.at(-1)).toEqual(turn(7).at(-1));
    expect(checkToolPairs(fromAgentInputItems(items))).toEqual([]);
    expect(await manager.getMessages()).toHaveLength(8 * 4);
  });

  it("should pop the last item, leaving the items before it", async () => {
    const session = new CtxkitSession({ manager: createSimpleContext({ tokenizer: "estimate" }) });
    await session.addItems(turn(1).slice(0, 3));
    expect(await session.popItem()).toEqual(turn(1)[2]);
    expect(await session.getItems()).toEqual(turn(1).slice(0, 2));
    await session.clearSession();
    expect(await session.popItem()).toBeUndefined();
    expect(await session.getItems()).toEqual([]);
  });
});
