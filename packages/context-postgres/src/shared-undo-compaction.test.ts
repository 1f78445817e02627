// An undo and a partial compaction on one PostgreSQL session that two workers share.
import { itSharesUndoAndPartialCompaction } from "@ctxkit/test-support/shared-undo-compaction";
import { describeWithPostgres } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";

describeWithPostgres("undo and partial compaction on a session two workers share", (connectionString) => {
  itSharesUndoAndPartialCompaction((sessionId) =>
    createPostgresContext({ connectionString, schema: "ctxkit_test", sessionId, tokenizer: "estimate" }),
  );
});
