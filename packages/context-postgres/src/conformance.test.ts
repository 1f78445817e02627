import { describeContextManager } from "@ctxkit/conformance/vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import * as contextPostgres from "./index.js";

// Each instance opens the session the kit names: a new one, unless the kit is restarting one.
describeWithPostgres("context-postgres on a real server", (connectionString) => {
  describeContextManager("context-postgres", contextPostgres, {
    config: ({ sessionId }: { sessionId: string }) => ({ connectionString, schema: "ctxkit_test", sessionId }),
    restart: true,
  });
});
