import { createServer } from "node:net";
import { randomUUID } from "node:crypto";
import { ContextClosedError } from "@ctxkit/core";
import { Redis } from "ioredis";
import { afterEach, expect, it } from "vitest";
import { describeWithRedis } from "../test/redis-server.js";
import { startTcpProxy, type TcpProxy } from "@ctxkit/test-support/tcp-proxy";
import { createRedisContext } from "./create-redis-context.js";
import { ContextStoreUnavailableError } from "./errors.js";

const keyPrefix = "ctxkit-test:";
const rejectionOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** A loopback port nothing listens on: the OS hands it out, and it is closed again at once. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeWithRedis("a frozen or dropped connection", (url) => {
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
  });
  const reopen = async (sessionId: string) => {
    const manager = await createRedisContext({ url, keyPrefix, sessionId, tokenizer: "estimate" });
    const messages = await manager.getMessages();
    await manager.close();
    return messages;
  };

  it("should fail an append whose connection froze with a typed error after the command timeout, then close and release the connection", async () => {
    proxy = await startTcpProxy(url);
    const sessionId = randomUUID();
    const manager = await createRedisContext({ url: proxy.url, keyPrefix, sessionId, tokenizer: "estimate", commandTimeoutMs: 300 });
    await manager.addMessage({ role: "user", content: "kept" });
    proxy.freeze();
    const failure = await rejectionOf(manager.addMessage({ role: "user", content: "lost in the frozen network" }));
    expect(failure).toBeInstanceOf(ContextClosedError);
    expect((failure as ContextClosedError).cause).toBeInstanceOf(ContextStoreUnavailableError);
    expect(((failure as ContextClosedError).cause as Error).message).toContain("commandTimeoutMs");
    await expect(manager.getMessages()).rejects.toBeInstanceOf(ContextClosedError);
    // The server never answers QUIT through a frozen proxy: close still finishes, and drops the socket.
    await manager.close();
    expect(await reopen(sessionId)).toEqual([{ role: "user", content: "kept" }]);
  });

  it("should close within the bound while an append is frozen in flight", async () => {
    proxy = await startTcpProxy(url);
    const manager = await createRedisContext({
      url: proxy.url,
      keyPrefix,
      sessionId: randomUUID(),
      tokenizer: "estimate",
      commandTimeoutMs: 300,
    });
    proxy.freeze();
    const append = rejectionOf(manager.addMessage({ role: "user", content: "in flight" }));
    await manager.close();
    expect(await append).toBeInstanceOf(ContextClosedError);
  });

  it("should fail every read queued on a frozen connection once the first times out, not one timeout after another (regression)", async () => {
    proxy = await startTcpProxy(url);
    const manager = await createRedisContext({
      url: proxy.url,
      keyPrefix,
      sessionId: randomUUID(),
      tokenizer: "estimate",
      commandTimeoutMs: 1_000,
    });
    proxy.freeze();
    // One after another, 100 reads would take 100 s, past this test's limit.
    const reads = await Promise.all(Array.from({ length: 100 }, () => rejectionOf(manager.getMessages())));
    for (const failure of reads) expect(failure).toBeInstanceOf(ContextStoreUnavailableError);
    await manager.close();
  });

  it("should fail an append whose connection is destroyed mid-command with a typed error, and store none of it", async () => {
    proxy = await startTcpProxy(url);
    const sessionId = randomUUID();
    const manager = await createRedisContext({ url: proxy.url, keyPrefix, sessionId, tokenizer: "estimate" });
    await manager.addMessage({ role: "user", content: "kept" });
    // Half of the next command reaches the server, then the connection goes.
    proxy.cutAfter(20);
    const failure = await rejectionOf(manager.addMessage({ role: "user", content: "cut off ".repeat(20) }));
    expect(failure).toBeInstanceOf(ContextClosedError);
    expect((failure as ContextClosedError).cause).toBeInstanceOf(ContextStoreUnavailableError);
    await manager.close();
    expect(await reopen(sessionId)).toEqual([{ role: "user", content: "kept" }]);
  });

  it("should reconnect, without an error, when the server drops a connection that was idle", async () => {
    proxy = await startTcpProxy(url);
    const sessionId = randomUUID();
    const manager = await createRedisContext({ url: proxy.url, keyPrefix, sessionId, tokenizer: "estimate" });
    await manager.addMessage({ role: "user", content: "before" });
    const reconnected = proxy.nextConnection();
    proxy.destroyConnections();
    await reconnected;
    await manager.addMessage({ role: "user", content: "after" });
    expect((await manager.getMessages()).map((message) => message.content)).toEqual(["before", "after"]);
    await manager.close();
  });

  it("should fail to open within connectTimeoutMs when the server accepts but never answers", async () => {
    proxy = await startTcpProxy(url);
    proxy.freeze();
    const failure = await rejectionOf(createRedisContext({ url: proxy.url, keyPrefix, tokenizer: "estimate", connectTimeoutMs: 300 }));
    expect(failure).toBeInstanceOf(ContextStoreUnavailableError);
    expect((failure as Error).message).toContain("connectTimeoutMs");
    expect((failure as Error).message).toContain("redis:127.0.0.1:");
  });

  it("should fail to open with a typed error naming the server on a refused port", async () => {
    const port = await closedPort();
    const failure = await rejectionOf(createRedisContext({ url: `redis://127.0.0.1:${port}`, keyPrefix, tokenizer: "estimate" }));
    expect(failure).toBeInstanceOf(ContextStoreUnavailableError);
    expect((failure as Error).message).toContain(`redis:127.0.0.1:${port}`);
    expect((failure as Error).message).toContain("ECONNREFUSED");
  });

  it("should fail to open with a typed error on a wrong password, never with the password in the message", async () => {
    const user = `ctxkit-test-${randomUUID().slice(0, 8)}`;
    const admin = new Redis(url);
    await admin.call("ACL", "SETUSER", user, "on", ">right-password", "~*", "+@all");
    try {
      const target = new URL(url);
      target.username = user;
      target.password = "wrong-password";
      const failure = await rejectionOf(createRedisContext({ url: target.toString(), keyPrefix, tokenizer: "estimate" }));
      expect(failure).toBeInstanceOf(ContextStoreUnavailableError);
      expect((failure as Error).message).toMatch(/WRONGPASS/);
      expect((failure as Error).message).not.toContain("wrong-password");
      target.password = "right-password";
      const manager = await createRedisContext({ url: target.toString(), keyPrefix, tokenizer: "estimate" });
      await manager.close();
    } finally {
      await admin.call("ACL", "DELUSER", user);
      await admin.quit();
    }
  });

  it("should fail to open with a typed error on a database the server does not have, rather than use another", async () => {
    const failure = await rejectionOf(createRedisContext({ url: `${url}/99`, keyPrefix, tokenizer: "estimate" }));
    expect(failure).toBeInstanceOf(ContextStoreUnavailableError);
    expect((failure as Error).message).toContain("DB index is out of range");
  });
});
