import { describeMessageStore } from "@ctxkit/conformance/vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import { PostgresMessageStore } from "./postgres-message-store.js";

describeWithPostgres("PostgreSQL store", (connectionString) => {
  describeMessageStore("PostgresMessageStore", (sessionId) => new PostgresMessageStore({ connectionString, sessionId, schema: "ctxkit_test" }));
});
