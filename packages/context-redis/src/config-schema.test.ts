import { ContextConfigError } from "@ctxkit/core";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { createRedisContext } from "./create-redis-context.js";

const url = "redis://127.0.0.1:1";
const issuesOf = async (config: Record<string, unknown>) => {
  const error = await createRedisContext(config as never).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ContextConfigError);
  return (error as ContextConfigError).issues.map((issue) => issue.path);
};

describe("context-redis config", () => {
  it("should reject an unknown key, naming it, before connecting", async () => {
    expect(await issuesOf({ url, sessionId: "chat", keyPrefx: "typo:" })).toEqual(["keyPrefx"]);
  });

  it.each([
    ["empty", ""],
    ["NUL", "chat\u0000one"],
    ["a lone high surrogate", "chat\ud800"],
    ["a lone low surrogate", "\udc00chat"],
    ["a brace", "chat}one"],
    ["over 256 characters", "x".repeat(257)],
  ])("should refuse a session id with %s, which Redis keys cannot keep apart or hold safely", async (_, sessionId) => {
    expect(await issuesOf({ url, sessionId })).toEqual(["sessionId"]);
  });

  it("should accept any other text as a session id, emoji included", async () => {
    // Valid config, so the failure is the closed port, not the id.
    const error = await createRedisContext({ url, sessionId: "chat 👩‍💻 東京 :#*", connectTimeoutMs: 1_000 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).not.toBeInstanceOf(ContextConfigError);
  });

  it("should refuse a key prefix with braces or NUL", async () => {
    expect(await issuesOf({ url, keyPrefix: "app{x}:" })).toEqual(["keyPrefix"]);
    expect(await issuesOf({ url, keyPrefix: "app\u0000" })).toEqual(["keyPrefix"]);
  });

  it("should want exactly one of url and client, and a redis URL", async () => {
    expect(await issuesOf({})).toEqual(["url"]);
    const client = new Redis({ lazyConnect: true });
    expect(await issuesOf({ url, client })).toEqual(["url"]);
    expect(await issuesOf({ url: "postgres://127.0.0.1/x" })).toEqual(["url"]);
    expect(await issuesOf({ client: { not: "a client" } })).toContain("client");
    client.disconnect();
  });

  it("should refuse timeouts that are not positive whole milliseconds", async () => {
    expect(await issuesOf({ url, connectTimeoutMs: 0, commandTimeoutMs: 1.5 })).toEqual(["connectTimeoutMs", "commandTimeoutMs"]);
  });
});
