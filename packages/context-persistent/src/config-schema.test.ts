import { describe, expect, it } from "vitest";
import { configSchema } from "./config-schema.js";

describe("configSchema", () => {
  it("should apply the defaults: batch durability, a lock, and context-simple's own", () => {
    expect(configSchema.parse({ storagePath: "sessions" })).toMatchObject({
      storagePath: "sessions",
      durability: "batch",
      lock: true,
      compactThreshold: 0.7,
      targetRatio: 0.2,
    });
  });

  it("should require storagePath", () => {
    expect(configSchema.safeParse({}).error?.issues.map((issue) => issue.path.join("."))).toEqual(["storagePath"]);
  });

  it.each(["../escape", "a/b", "a\\b", ".hidden", "..", "", "x".repeat(129), "with space", "nul\0"])(
    "should reject the session id %j: it must be a plain file name",
    (sessionId) => {
      expect(configSchema.safeParse({ storagePath: "sessions", sessionId }).success).toBe(false);
    },
  );

  it.each(["2025-01-01_chat.v2", "0b6f8a1e-3c7d-4d2f-9a51-6f0e2b7c9d10", "A"])("should accept the session id %j", (sessionId) => {
    expect(configSchema.safeParse({ storagePath: "sessions", sessionId }).success).toBe(true);
  });

  it("should still reject unknown keys and keep context-simple's cross-field check", () => {
    expect(configSchema.safeParse({ storagePath: "s", transcript_path: "x" }).success).toBe(false);
    expect(configSchema.safeParse({ storagePath: "s", targetRatio: 0.95 }).error?.issues[0]?.path).toEqual(["targetRatio"]);
  });
});
