import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeContextManager } from "@ctxkit/conformance/vitest";
import { afterAll } from "vitest";
import * as contextPersistent from "./index.js";

// The view properties (the kit's VIEW_PROPERTIES) depend only on the history the store hands the engine: core's
// engine meets them at full runs in context-simple's conformance, and what the store can get wrong (a message
// altered or lost, order, a replace or a clear, concurrent calls, what survives a restart) is proven by
// jsonl-store-conformance.test.ts and, on generated histories, by restart, resume, clear and concurrency here,
// which keep their full runs with every other property and the structural checks. The view properties run at 25
// runs over the files.
// One folder for the whole suite; each instance opens the session the kit names, a new one unless it is restarting one.
const storagePath = mkdtempSync(join(tmpdir(), "ctxkit-conformance-"));
afterAll(() => rmSync(storagePath, { recursive: true, force: true }));

const config = ({ sessionId }: { sessionId: string }) => ({ storagePath, sessionId });
describeContextManager("context-persistent", contextPersistent, { config, restart: true, viewPropertyRuns: 25 });
