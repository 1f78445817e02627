import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONFORMANCE_PROPERTIES } from "@ctxkit/conformance";
import { describeContextManager } from "@ctxkit/conformance/vitest";
import { afterAll } from "vitest";
import * as contextPersistent from "./index.js";

// The view properties depend only on the history the store hands the engine: core's engine meets them at full runs
// in context-simple's conformance. What the store can get wrong (a message altered or lost, order, a replace or a
// clear, concurrent calls, what survives a restart) is proven by jsonl-store-conformance.test.ts and, on generated
// histories, by restart, resume, clear and concurrency here, which keep their full runs with every other property
// that is not a view property (any the kit adds later included) and the structural checks. The view properties
// run at a quarter of the runs over the files.
const VIEW_PROPERTIES = [
  "pairing",
  "order",
  "unit-integrity",
  "reasoning-intact",
  "non-destructive",
  "budget",
  "preservation",
  "prefix-stability",
  "compaction-frequency",
  "compaction-progress",
  "validation",
  "events",
  "budget-inputs",
  "caller-markers",
  "compact",
  "recover-overflow",
  "usage",
  "summary-coverage",
  "offload-retrieval",
  "partial-history-units",
];
const STRUCTURAL_CHECKS = ["meta", "mount-function", "config-schema", "mount-registers-manager", "events-contributor", "cleanup"];
const STORE_PROPERTIES = CONFORMANCE_PROPERTIES.map((property) => property.name).filter((name) => !VIEW_PROPERTIES.includes(name));

// One folder for the whole suite; each instance opens the session the kit names, a new one unless it is restarting one.
const storagePath = mkdtempSync(join(tmpdir(), "ctxkit-conformance-"));
afterAll(() => rmSync(storagePath, { recursive: true, force: true }));

const config = ({ sessionId }: { sessionId: string }) => ({ storagePath, sessionId });
describeContextManager("context-persistent", contextPersistent, {
  config,
  restart: true,
  only: [...STRUCTURAL_CHECKS, ...STORE_PROPERTIES],
});
describeContextManager("context-persistent, view properties", contextPersistent, {
  config,
  restart: true,
  only: VIEW_PROPERTIES,
  runs: 25,
});
