import { describe, expect, it } from "vitest";
import { ContextError } from "../errors.js";
import type { Message } from "../messages/message.js";
import type { ContextManager, RequestOptions } from "../protocol.js";
import { estimateCounter } from "../tokens/estimate-counter.js";
import { countMessageTokens } from "../tokens/count-message-tokens.js";
import { checkToolPairs } from "../units/check-tool-pairs.js";
import { memoryContext } from "../../test/memory-context.js";
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

describe("sendWithRecovery against a provider that counts twice the manager's tokens", () => {
  const WINDOW = 8_192;
  const MAX_OUTPUT = 1_024;
  const words = ["build", "cache", "error", "field", "graph", "index", "layer", "parse", "query", "route", "stack", "token"];
  // A tool output of about 1,900 characters: under every trim's limit, so only dropping or clearing makes room.
  const fileText = (seed: number) =>
    Array.from({ length: 320 }, (_, index) => words[(seed * 7 + index * 5) % words.length])
      .join(" ")
      .slice(0, 1_900);
  // Mostly one or two reads a turn; every fifth turn reads seven.
  const readsIn = (turn: number) => (turn % 5 === 0 ? 7 : 1 + (turn % 2));

  it("should keep a tool-heavy session serving 60+ requests in an 8,192-token window (regression)", async () => {
    const counter = estimateCounter();
    const manager = await memoryContext({
      tokenizer: "estimate",
      maxTokens: WINDOW,
      compactThreshold: 0.92,
      targetRatio: 0.6,
      strategies: ["clear-tool-results", "trim-long-text", "truncate"],
    });
    // An agent's long instructions, which no compaction may touch: the minimal view passes 75% of a rejected view,
    // so a recovery must stop at the minimal view rather than shrink below it.
    await manager.addMessage({ role: "system", content: fileText(0).repeat(5) });
    let recoveries = 0;
    const recover = manager.recoverOverflow.bind(manager);
    manager.recoverOverflow = (error, options) => ((recoveries += 1), recover(error, options));
    let requests = 0;
    // Twice the manager's count plus framing per message. Each request also reserves MAX_OUTPUT of the window,
    // which the manager (told only the window, as the README loops are) does not know: views near its budget
    // are rejected, and recovered.
    const send = async (view: Message[]) => {
      expect(checkToolPairs(view)).toEqual([]);
      const providerTokens = view.reduce((total, message) => total + 2 * (countMessageTokens(message, counter) + 4), 0);
      if (providerTokens + MAX_OUTPUT > WINDOW)
        throw new TooLong(`input length and max_tokens exceed context limit: ${providerTokens} + ${MAX_OUTPUT} > ${WINDOW}`);
      requests += 1;
      return providerTokens;
    };
    const request = async () => {
      const providerTokens = await sendWithRecovery({ manager, request: {}, provider: "Test API", isOverflow, send });
      await manager.reportUsage({ inputTokens: providerTokens });
    };
    for (let turn = 1; requests < 65; turn += 1) {
      await manager.addMessage({ role: "user", content: `Turn ${turn}: read ${readsIn(turn)} file(s).` });
      for (let read = 0; read < readsIn(turn); read += 1) {
        await request();
        const id = `call_${turn}_${read}`;
        await manager.addMessage({
          role: "assistant",
          content: null,
          tool_calls: [{ id, type: "function", function: { name: "read_file", arguments: JSON.stringify({ path: `${id}.txt` }) } }],
        });
        await manager.addMessage({ role: "tool", tool_call_id: id, content: fileText(turn * 10 + read) });
      }
      await request();
      await manager.addMessage({ role: "assistant", content: `Turn ${turn}: the files list build steps.` });
    }
    expect(requests).toBeGreaterThanOrEqual(65);
    expect(recoveries).toBeGreaterThan(0);
  });
});
