import { randomUUID } from "node:crypto";
import { ContextClosedError } from "@ctxkit/core";
import pg from "pg";
import { expect, it } from "vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";
import { ContextStoreUnavailableError } from "./errors.js";

describeWithPostgres("a dropped connection", (connectionString) => {
  it("should fail a write whose connection drops mid-transaction with a typed error, and store none of it", async () => {
    const application = `ctxkit_drop_${randomUUID().slice(0, 8)}`;
    const sessionId = randomUUID();
    const url = `${connectionString}?application_name=${application}`;
    const manager = await createPostgresContext({ connectionString: url, schema: "ctxkit_test", sessionId, tokenizer: "estimate" });
    await manager.addMessage({ role: "user", content: "kept" });
    // Hold the session row, so the next append waits inside its transaction; then cut its connection there.
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query("BEGIN");
    await admin.query('SELECT 1 FROM "ctxkit_test"."ctxkit_sessions" WHERE session_id = $1 FOR UPDATE', [sessionId]);
    const write = manager.addMessage({ role: "user", content: "lost with its connection" }).catch((error: unknown) => error);
    let terminated = 0;
    while (terminated === 0) {
      const result = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'",
        [application],
      );
      terminated = result.rowCount ?? 0;
    }
    await admin.query("ROLLBACK");
    await admin.end();
    const failure = await write;
    expect(failure).toBeInstanceOf(ContextClosedError);
    expect((failure as ContextClosedError).cause).toBeInstanceOf(ContextStoreUnavailableError);
    await expect(manager.getMessages()).rejects.toBeInstanceOf(ContextClosedError);
    await manager.close();
    const reopened = await createPostgresContext({ connectionString, schema: "ctxkit_test", sessionId, tokenizer: "estimate" });
    expect(await reopened.getMessages()).toEqual([{ role: "user", content: "kept" }]);
    await reopened.close();
  });
});
