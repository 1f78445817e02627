// Compaction receipts on a shared Redis session: what one worker's compaction recorded, another worker reads.
import { itSharesCompactionReceipts } from "@ctxkit/test-support/shared-compaction-receipts";
import { describeWithRedis } from "../test/redis-server.js";
import { createRedisContext } from "./create-redis-context.js";

describeWithRedis("compaction receipts", (url) => {
  itSharesCompactionReceipts((sessionId) => createRedisContext({ url, keyPrefix: "ctxkit-test:", sessionId, tokenizer: "estimate" }));
});
