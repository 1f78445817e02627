// popItem of the OpenAI Agents session on one Redis session that two workers write.
import { itPopsOnlyWhatItRead } from "@ctxkit/test-support/shared-pop-item";
import { describeWithRedis } from "../test/redis-server.js";
import { createRedisContext } from "./create-redis-context.js";

const keyPrefix = "ctxkit-test:";

describeWithRedis("popItem on a session two workers share", (url) => {
  const open = (sessionId: string) => createRedisContext({ url, keyPrefix, sessionId, tokenizer: "estimate" });

  itPopsOnlyWhatItRead(open);
});
