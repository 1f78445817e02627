import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeWithRedis } from "../test/redis-server.js";
import { RedisMessageStore } from "./redis-message-store.js";

describeWithRedis("a large session", (url) => {
  it("should replace and append 200,000 messages at once, past what a JavaScript call's arguments can hold (regression)", async () => {
    const sessionId = randomUUID();
    const store = new RedisMessageStore({ url, sessionId, keyPrefix: "ctxkit-test:" });
    await store.open();
    await store.load();
    const messages = Array.from({ length: 200_000 }, (_, index) => ({ role: "user" as const, content: `${index}` }));
    await store.replace(messages, new Map());
    // Appends called while the replace runs share one RPUSH.
    const pending = store.writeState({ strategy: "s", key: "k", value: 1 });
    await Promise.all([pending, ...messages.map((message) => store.append(message))]);
    await store.close();
    const reader = new RedisMessageStore({ url, sessionId, keyPrefix: "ctxkit-test:" });
    await reader.open();
    const session = await reader.load();
    expect(session.messages).toHaveLength(400_000);
    expect(session.messages[399_999]).toEqual({ role: "user", content: "199999" });
    await reader.replace([], new Map());
    await reader.close();
  });
});
