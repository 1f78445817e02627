import { describeContextManager } from "@ctxkit/conformance/vitest";
import { describeWithRedis } from "../test/redis-server.js";
import * as contextRedis from "./index.js";

// The view properties (the kit's VIEW_PROPERTIES) depend only on the history the store hands the engine: core's
// engine meets them at full runs in context-simple's conformance, and what the server can get wrong (a message
// altered or lost, order, a replace or a clear, concurrent calls, what survives a restart) is proven by
// store-conformance.test.ts and, on generated histories, by restart, resume, clear and concurrency here, which keep
// their full runs with every other property and the structural checks. The view properties run at 25 runs here.
// Each instance opens the session the kit names: a new one, unless the kit is restarting one.
describeWithRedis("context-redis on a real server", (url) => {
  const config = ({ sessionId }: { sessionId: string }) => ({ url, keyPrefix: "ctxkit-test:", sessionId });
  describeContextManager("context-redis", contextRedis, { config, restart: true, viewPropertyRuns: 25 });
});
