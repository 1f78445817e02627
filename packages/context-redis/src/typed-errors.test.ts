// The Redis store's constructor answers bad options with a typed ctxkit error naming them.
import { ContextError } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import { RedisMessageStore } from "./redis-message-store.js";

describe("typed errors at the Redis store's entry points", () => {
  it.each([
    ["neither url nor client", { sessionId: "s" }],
    ["both url and client", { sessionId: "s", url: "redis://127.0.0.1:1", client: {} }],
    ["no options at all", undefined],
  ])("should refuse %s with a ContextArgumentError naming url and client", (_, options) => {
    let error: unknown;
    try {
      new RedisMessageStore(options as never);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ContextError);
    expect(error).toMatchObject({ code: "CONTEXT_ARGUMENT" });
    expect((error as Error).message).toContain("options.url, options.client");
  });
});
