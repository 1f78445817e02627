import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeContextManager } from "@ctxkit/conformance/vitest";
import { afterAll } from "vitest";
import * as contextPersistent from "./index.js";

// One folder for the whole suite; each instance opens the session the kit names, a new one unless it is restarting one.
const storagePath = mkdtempSync(join(tmpdir(), "ctxkit-conformance-"));
afterAll(() => rmSync(storagePath, { recursive: true, force: true }));

describeContextManager("context-persistent", contextPersistent, {
  config: ({ sessionId }: { sessionId: string }) => ({ storagePath, sessionId }),
  restart: true,
});
