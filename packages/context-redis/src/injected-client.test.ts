import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { expect, it } from "vitest";
import { describeWithRedis } from "../test/redis-server.js";
import { createRedisContext } from "./create-redis-context.js";

describeWithRedis("a client the caller owns", (url) => {
  it("should use the caller's client, share the session with URL workers, and leave the client open at close", async () => {
    const client = new Redis(url);
    const sessionId = randomUUID();
    const keyPrefix = "ctxkit-test:";
    const injected = await createRedisContext({ client, keyPrefix, sessionId, tokenizer: "estimate" });
    const byUrl = await createRedisContext({ url, keyPrefix, sessionId, tokenizer: "estimate" });
    await injected.addMessage({ role: "user", content: "through the caller's client" });
    await byUrl.addMessage({ role: "assistant", content: "through its own connection" });
    expect((await injected.getMessages()).map((message) => message.content)).toEqual([
      "through the caller's client",
      "through its own connection",
    ]);
    await Promise.all([injected.close(), byUrl.close()]);
    expect(await client.ping()).toBe("PONG");
    expect(await client.llen(`${keyPrefix}{${sessionId}}:messages`)).toBe(2);
    await client.quit();
  });
});
