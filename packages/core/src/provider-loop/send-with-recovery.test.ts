import { describe, expect, it } from "vitest";
import { ContextError } from "../errors.js";
import type { Message } from "../messages/message.js";
import type { ContextManager, RequestOptions } from "../protocol.js";
import { ContextOverflowError } from "./context-overflow-error.js";
import { sendWithRecovery } from "./send-with-recovery.js";

class TooLong extends Error {}

function managerWith(options: { recover: boolean }) {
  const calls: string[] = [];
  const view: Message[] = [{ role: "user", content: "full view" }];
  const smaller: Message[] = [{ role: "user", content: "smaller view" }];
  const manager: ContextManager & { recoverOverflow?: (error: unknown, request?: RequestOptions) => Promise<Message[]> } = {
    addMessage: async () => {},
    getMessagesForRequest: async () => {
      calls.push("view");
      return view;
    },
    getMessages: async () => view,
    setMessages: async () => {},
    clear: async () => {},
  };
  if (options.recover)
    manager.recoverOverflow = async () => {
      calls.push("recover");
      return smaller;
    };
  return { manager, calls };
}

const isOverflow = (error: unknown) => error instanceof TooLong;

describe("sendWithRecovery", () => {
  it("should retry once on the manager's smaller view after an overflow", async () => {
    const { manager, calls } = managerWith({ recover: true });
    const sent: string[] = [];
    const result = await sendWithRecovery({
      manager,
      request: {},
      provider: "Test API",
      isOverflow,
      send: async (view) => {
        sent.push(String(view[0]!.content));
        if (sent.length === 1) throw new TooLong("too long");
        return "ok";
      },
    });
    expect(result).toBe("ok");
    expect(sent).toEqual(["full view", "smaller view"]);
    expect(calls).toEqual(["view", "recover"]);
  });

  it("should surface a second rejection as a ContextOverflowError wrapping the provider's error", async () => {
    const { manager } = managerWith({ recover: true });
    const second = new TooLong("still too long");
    let attempts = 0;
    const rejection = sendWithRecovery({
      manager,
      request: {},
      provider: "Test API",
      isOverflow,
      send: async () => {
        attempts += 1;
        throw attempts === 1 ? new TooLong("too long") : second;
      },
    });
    await expect(rejection).rejects.toBeInstanceOf(ContextOverflowError);
    const error = (await rejection.catch((caught: unknown) => caught)) as ContextOverflowError;
    expect(error).toBeInstanceOf(ContextError);
    expect(error).toMatchObject({ code: "CONTEXT_OVERFLOW", provider: "Test API", recovered: true, cause: second });
    expect(attempts).toBe(2);
  });

  it("should not retry when the manager cannot recover, and say so", async () => {
    const { manager } = managerWith({ recover: false });
    const rejection = sendWithRecovery({
      manager,
      request: {},
      provider: "Test API",
      isOverflow,
      send: async () => {
        throw new TooLong("too long");
      },
    });
    await expect(rejection).rejects.toMatchObject({ code: "CONTEXT_OVERFLOW", recovered: false });
  });

  it("should let other errors through untouched and not retry them", async () => {
    const { manager, calls } = managerWith({ recover: true });
    const failure = new Error("rate limited");
    await expect(
      sendWithRecovery({
        manager,
        request: {},
        provider: "Test API",
        isOverflow,
        send: async () => {
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
    expect(calls).toEqual(["view"]);
  });
});
