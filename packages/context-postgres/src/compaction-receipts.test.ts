// Compaction receipts on a shared PostgreSQL session: what one worker's compaction recorded, another worker reads.
import { itSharesCompactionReceipts } from "@ctxkit/test-support/shared-compaction-receipts";
import { describeWithPostgres } from "../test/postgres-server.js";
import { createPostgresContext } from "./create-postgres-context.js";

describeWithPostgres("compaction receipts", (connectionString) => {
  itSharesCompactionReceipts((sessionId) =>
    createPostgresContext({ connectionString, schema: "ctxkit_test", sessionId, tokenizer: "estimate" }),
  );
});
