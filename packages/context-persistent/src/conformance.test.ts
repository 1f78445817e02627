import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeContextManager } from "@ctxkit/conformance/vitest";
import { afterAll } from "vitest";
import * as contextPersistent from "./index.js";

// One folder for the whole suite; with no sessionId every mount opens a new session in it, so every run starts empty.
const storagePath = mkdtempSync(join(tmpdir(), "ctxkit-conformance-"));
afterAll(() => rmSync(storagePath, { recursive: true, force: true }));

describeContextManager("context-persistent", contextPersistent, { config: { storagePath } });
