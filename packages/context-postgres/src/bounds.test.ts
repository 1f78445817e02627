import { randomUUID } from "node:crypto";
import { ContextClosedError } from "@ctxkit/core";
import { afterEach, expect, it, vi } from "vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import { settleBefore } from "../test/settle-before.js";
import { startTcpProxy, type TcpProxy } from "@ctxkit/test-support/tcp-proxy";
import { createPostgresContext } from "./create-postgres-context.js";
import { ContextStoreUnavailableError, PostgresCloseTimeoutError } from "./errors.js";

const schema = "ctxkit_test";
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
});

describeWithPostgres("the bounds on a stuck server or network", (connectionString) => {
  it("should reject opening against a server that accepts and never answers, with a typed error naming connectTimeoutMs", async () => {
    proxy = await startTcpProxy(connectionString, "silent");
    const opening = createPostgresContext({ connectionString: proxy.url, schema, tokenizer: "estimate", connectTimeoutMs: 300 });
    const outcome = await settleBefore(opening);
    expect(outcome.settled, "open still pending after 20 s").toBe(true);
    const error = outcome.settled ? outcome.error : undefined;
    expect(error).toBeInstanceOf(ContextStoreUnavailableError);
    expect((error as Error).message).toMatch(/connectTimeoutMs \(300 ms\)/);
    await vi.waitFor(() => expect(proxy!.openConnections).toBe(0), { timeout: 10_000 });
  }, 30_000);

  it("should reject a write the frozen network never answers, naming statementTimeoutMs, and still close", async () => {
    proxy = await startTcpProxy(connectionString);
    const options = { connectionString: proxy.url, schema, sessionId: randomUUID(), tokenizer: "estimate" as const };
    const manager = await createPostgresContext({ ...options, statementTimeoutMs: 300, closeTimeoutMs: 300 });
    await manager.addMessage({ role: "user", content: "before" });
    proxy.freeze();
    const outcome = await settleBefore(manager.addMessage({ role: "user", content: "frozen" }));
    expect(outcome.settled, "append still pending after 20 s").toBe(true);
    const error = outcome.settled ? outcome.error : undefined;
    expect(error).toBeInstanceOf(ContextClosedError);
    expect((error as ContextClosedError).cause).toBeInstanceOf(ContextStoreUnavailableError);
    expect(((error as ContextClosedError).cause as Error).message).toMatch(/statementTimeoutMs \(300 ms\)/);
    expect(await settleBefore(manager.close())).toEqual({ settled: true, value: undefined });
    await vi.waitFor(() => expect(proxy!.openConnections).toBe(0), { timeout: 10_000 });
  }, 30_000);

  it("should finish close() within closeTimeoutMs when the network froze mid-append, report the write, and release every connection", async () => {
    proxy = await startTcpProxy(connectionString);
    const sessionId = randomUUID();
    const manager = await createPostgresContext({
      connectionString: proxy.url,
      schema,
      sessionId,
      tokenizer: "estimate",
      closeTimeoutMs: 300,
    });
    await manager.addMessage({ role: "user", content: "before" });
    proxy.freeze();
    const append = manager.addMessage({ role: "user", content: "never confirmed" }).catch((caught: unknown) => caught);
    const closed = await settleBefore(manager.close());
    expect(closed.settled, "close() still pending after 20 s").toBe(true);
    const error = closed.settled ? closed.error : undefined;
    expect(error).toBeInstanceOf(PostgresCloseTimeoutError);
    expect(error).toMatchObject({ code: "CONTEXT_CLOSE_TIMEOUT", unconfirmedWrites: 1, timeoutMs: 300 });
    expect(((await append) as ContextClosedError).cause).toBeInstanceOf(ContextStoreUnavailableError);
    await vi.waitFor(() => expect(proxy!.openConnections).toBe(0), { timeout: 10_000 });
    // Nothing of the frozen write reached the server; the session opens again directly.
    const reopened = await createPostgresContext({ connectionString, schema, sessionId, tokenizer: "estimate" });
    expect(await reopened.getMessages()).toEqual([{ role: "user", content: "before" }]);
    await reopened.close();
  }, 30_000);
});
