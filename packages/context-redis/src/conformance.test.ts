import { describeContextManager } from "@ctxkit/conformance/vitest";
import { describeWithRedis } from "../test/redis-server.js";
import * as contextRedis from "./index.js";

// Each instance opens the session the kit names: a new one, unless the kit is restarting one.
describeWithRedis("context-redis on a real server", (url) => {
  describeContextManager("context-redis", contextRedis, {
    config: ({ sessionId }: { sessionId: string }) => ({ url, keyPrefix: "ctxkit-test:", sessionId }),
    restart: true,
  });
});
