// popItem of the OpenAI Agents session on one session that two workers share: the same tests for every shared store.
import { randomUUID } from "node:crypto";
import { type ContextManager, ContextHistoryConflictError, type Message } from "@ctxkit/core";
import { CtxkitSession } from "@ctxkit/openai";
import { expect, it } from "vitest";

/** A manager on the shared session `sessionId`, opened as a new worker would. */
export type OpenSharedManager = (sessionId: string) => Promise<ContextManager & { close(): Promise<void> }>;

const contents = (messages: readonly Message[]) => messages.map((message) => message.content as string);

/** `manager`, whose first `times` history reads each let `between` run before they answer: another worker's turn. */
function readsThenYields<T extends ContextManager>(manager: T, between: () => Promise<void>, times: number): T {
  let remaining = times;
  return new Proxy(manager, {
    get(target, key) {
      if (key === "getMessages")
        return async () => {
          const history = await target.getMessages();
          if (remaining > 0) {
            remaining -= 1;
            await between();
          }
          return history;
        };
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Registers, in the calling `describe`, the tests that `popItem` never deletes a message another worker appends between
 * its read and its edit, and gives up typed when every edit is overtaken.
 */
export function itPopsOnlyWhatItRead(open: OpenSharedManager): void {
  it("should never delete a message another worker appends between popItem's read and its edit (regression)", async () => {
    const sessionId = randomUUID();
    const first = await open(sessionId);
    await first.addMessage({ role: "user", content: "question" });
    await first.addMessage({ role: "user", content: "follow-up" });
    const second = await open(sessionId);
    const session = new CtxkitSession({
      manager: readsThenYields(first, () => second.addMessage({ role: "user", content: "from the second worker" }), 1),
    });
    const popped = await session.popItem();
    const stored = contents(await second.getMessages());
    // What the pop removed, it returned: the history plus the popped item is everything either worker added.
    expect([...stored, (popped as { content: string }).content].sort()).toEqual(["follow-up", "from the second worker", "question"]);
    expect(stored).toContain("question");
    expect(stored).toHaveLength(2);
    expect(contents(await first.getMessages())).toEqual(stored);
    await Promise.all([first.close(), second.close()]);
  }, 30_000);

  it("should reject with ContextHistoryConflictError, having deleted nothing, while another worker appends before every edit", async () => {
    const sessionId = randomUUID();
    const first = await open(sessionId);
    await first.addMessage({ role: "user", content: "question" });
    const second = await open(sessionId);
    let appended = 0;
    const appendOne = () => second.addMessage({ role: "user", content: `appended ${(appended += 1)}` });
    const session = new CtxkitSession({ manager: readsThenYields(first, appendOne, Number.POSITIVE_INFINITY) });
    await expect(session.popItem()).rejects.toBeInstanceOf(ContextHistoryConflictError);
    const reader = await open(sessionId);
    expect(contents(await reader.getMessages())).toEqual([
      "question",
      ...Array.from({ length: appended }, (_, index) => `appended ${index + 1}`),
    ]);
    await Promise.all([first.close(), second.close(), reader.close()]);
  }, 30_000);
}
