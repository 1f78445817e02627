// An undo and a partial compaction on one Redis session that two workers share.
import { itSharesUndoAndPartialCompaction } from "@ctxkit/test-support/shared-undo-compaction";
import { describeWithRedis } from "../test/redis-server.js";
import { createRedisContext } from "./create-redis-context.js";

describeWithRedis("undo and partial compaction on a session two workers share", (url) => {
  itSharesUndoAndPartialCompaction((sessionId) => createRedisContext({ url, keyPrefix: "ctxkit-test:", sessionId, tokenizer: "estimate" }));
});
