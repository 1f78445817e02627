import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { credentialsOf, REDACTED, redactCredentials, redactText } from "./redact-credentials.js";

describe("credentialsOf", () => {
  it("should take the URL's password as written and decoded, and user:password, longest first", () => {
    expect(credentialsOf({ url: "redis://alice:p%40ss@127.0.0.1:6379/0" })).toEqual(["alice:p%40ss", "alice:p@ss", "p%40ss", "p@ss"]);
  });

  it("should take a password= query parameter and a password given apart, and no user alone", () => {
    expect(credentialsOf({ url: "postgres://bob@db/app?password=hunter2", username: "bob", password: "other" })).toEqual([
      "bob:other",
      "hunter2",
      "other",
    ]);
    expect(credentialsOf({ url: "redis://127.0.0.1:6379" })).toEqual([]);
    // ioredis keeps null where no password was given.
    expect(credentialsOf({ username: null, password: null })).toEqual([]);
  });
});

describe("redactText", () => {
  it("should remove each secret, any URL's password and any password= value", () => {
    expect(redactText("AUTH default s3cret failed", ["s3cret"])).toBe(`AUTH default ${REDACTED} failed`);
    expect(redactText("cannot reach postgres://u:unknown@h:5432/d", [])).toBe(`cannot reach postgres://u:${REDACTED}@h:5432/d`);
    expect(redactText("host=h password=abc user=u", [])).toBe(`host=h password=${REDACTED} user=u`);
  });
});

describe("redactCredentials", () => {
  const secret = "s3cret-Pw";

  it("should keep the name, message, code and text fields, and drop what the driver hung on the error (regression)", () => {
    const driverError = Object.assign(new Error(`WRONGPASS for ${secret}`), {
      name: "ReplyError",
      code: "WRONGPASS",
      errno: 7,
      command: { name: "hello", args: ["3", "AUTH", "default", secret] },
    });
    const copy = redactCredentials(driverError, [secret]) as Error & Record<string, unknown>;
    expect(copy).toMatchObject({ name: "ReplyError", code: "WRONGPASS", errno: 7, message: `WRONGPASS for ${REDACTED}` });
    expect(copy["command"]).toBeUndefined();
    expect(inspect(copy, { depth: 10 })).not.toContain(secret);
  });

  it("should copy a cause chain and an AggregateError's errors, each redacted", () => {
    const inner = new AggregateError([new Error(`first ${secret}`), new Error("second")], `all failed for ${secret}`);
    const outer = new Error(`outer ${secret}`, { cause: inner });
    const copy = redactCredentials(outer, [secret]);
    const printed = inspect(copy, { depth: 20 });
    expect(printed).not.toContain(secret);
    expect(printed).toContain("second");
    expect((copy.cause as AggregateError).errors).toHaveLength(2);
  });

  it("should end a cause cycle instead of following it forever", () => {
    const first = new Error(`one ${secret}`);
    const second = new Error("two", { cause: first });
    (first as { cause?: unknown }).cause = second;
    expect(inspect(redactCredentials(first, [secret]), { depth: 50 })).not.toContain(secret);
  });

  it("should turn a thrown non-error into an error with its text redacted", () => {
    expect(redactCredentials({ password: secret }, [secret]).message).toBe(`{"password":"${REDACTED}"}`);
  });
});
