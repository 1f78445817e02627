import { randomUUID } from "node:crypto";
import { createContextManager } from "@ctxkit/core";
import { afterEach, expect, it } from "vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import { settleBefore } from "../test/settle-before.js";
import { startTcpProxy, type TcpProxy } from "@ctxkit/test-support/tcp-proxy";
import { PostgresMessageStore } from "./postgres-message-store.js";

const schema = "ctxkit_test";
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describeWithPostgres("close() of a manager whose network froze mid-call", (connectionString) => {
  /** A manager through a proxy, with a message stored and its network then frozen; statementTimeoutMs stays at its 30 s default. */
  async function frozenManager() {
    proxy = await startTcpProxy(connectionString);
    const store = new PostgresMessageStore({ connectionString: proxy.url, schema, sessionId: randomUUID(), closeTimeoutMs: 300 });
    const manager = await createContextManager({ store, tokenizer: "estimate" });
    await manager.addMessage({ role: "user", content: "before" });
    proxy.freeze();
    return manager;
  }

  // Each call reads (syncs) first; the manager's close() waits for the calls made before it. Without the
  // store's close bound starting at the manager's close(), it waited out the 30 s statement timeout.
  for (const [name, call] of [
    ["a pin", (manager: Awaited<ReturnType<typeof createContextManager>>) => manager.pinMessage(0)],
    ["a view", (manager: Awaited<ReturnType<typeof createContextManager>>) => manager.getMessagesForRequest({ tokenBudget: 1_000 })],
    ["an append", (manager: Awaited<ReturnType<typeof createContextManager>>) => manager.addMessage({ role: "user", content: "frozen" })],
  ] as const) {
    it(`should settle close() within closeTimeoutMs while ${name} is frozen in flight, and reject ${name} with a typed error (regression)`, async () => {
      const manager = await frozenManager();
      const inFlight = settleBefore(call(manager));
      // Far below the 30 s statement timeout, well above the 300 ms bound: a guard, not a speed test.
      const closed = await settleBefore(manager.close(), 10_000);
      expect(closed.settled, "close() was still pending 10 s after it was called (closeTimeoutMs: 300)").toBe(true);
      const closeError = closed.settled ? closed.error : undefined;
      if (closeError !== undefined) expect(closeError).toMatchObject({ code: "CONTEXT_CLOSE_TIMEOUT", timeoutMs: 300 });
      const outcome = await inFlight;
      expect(outcome.settled && outcome.error !== undefined, `${name} frozen in flight did not reject`).toBe(true);
      expect((outcome as { error: { code?: unknown } }).error.code).toMatch(/^CONTEXT_/);
    }, 60_000);
  }
});
