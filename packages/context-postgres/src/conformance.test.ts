import { describeContextManager } from "@ctxkit/conformance/vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import * as contextPostgres from "./index.js";

// With no sessionId every mount opens a new session, so every run starts empty.
describeWithPostgres("context-postgres on a real server", (connectionString) => {
  describeContextManager("context-postgres", contextPostgres, { config: { connectionString, schema: "ctxkit_test" } });
});
