import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeMessageStore } from "@ctxkit/conformance/vitest";
import { afterAll } from "vitest";
import { JsonlFileStore } from "./jsonl-file-store.js";

const directory = mkdtempSync(join(tmpdir(), "ctxkit-store-suite-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describeMessageStore("JsonlFileStore", (sessionId) => new JsonlFileStore({ directory, sessionId }));
