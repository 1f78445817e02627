import { ContextStoreAccessError, ContextStoreCorruptError, ContextStoreUnavailableError } from "@ctxkit/core";
import { describe, expect, it } from "vitest";
import * as postgres from "./index.js";
import { toStoreError } from "./store-failure.js";

const subject = {
  location: "public.ctxkit/chat-42",
  server: "db.internal:5432/ctxkit",
  connectTimeoutMs: 10_000,
  statementTimeoutMs: 30_000,
};

function driverError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

describe("the store's errors are core's store errors (regression)", () => {
  it("should report an unreachable server as core's ContextStoreUnavailableError, saying what to do", () => {
    const error = toStoreError(driverError("ECONNREFUSED", "connect ECONNREFUSED"), subject);
    expect(error).toBeInstanceOf(ContextStoreUnavailableError);
    expect(error).toMatchObject({ code: "CONTEXT_STORE_UNAVAILABLE", location: subject.location });
    expect(error.message).toContain("nothing accepts connections at db.internal:5432/ctxkit (ECONNREFUSED). Start PostgreSQL there");
  });

  it("should export core's class under its name, not a class of its own", () => {
    expect(postgres.ContextStoreUnavailableError).toBe(ContextStoreUnavailableError);
  });

  it("should report a refused role as core's ContextStoreAccessError, with the server and what was refused", () => {
    const error = toStoreError(driverError("28P01", "password authentication failed"), subject);
    expect(error).toBeInstanceOf(ContextStoreAccessError);
    expect(error).toBeInstanceOf(postgres.PostgresStoreAccessError);
    expect(error).toMatchObject({ code: "CONTEXT_STORE_ACCESS", path: subject.location, server: subject.server, reason: "role" });
    expect(error.message).toContain("PostgreSQL at db.internal:5432/ctxkit refused");
  });

  it("should report a table changed outside ctxkit as core's ContextStoreCorruptError", () => {
    expect(toStoreError(driverError("42P01", 'relation "ctxkit_messages" does not exist'), subject)).toBeInstanceOf(
      ContextStoreCorruptError,
    );
  });
});
