import { CONFORMANCE_PROPERTIES } from "@ctxkit/conformance";
import { describeContextManager } from "@ctxkit/conformance/vitest";
import { describeWithPostgres } from "../test/postgres-server.js";
import * as contextPostgres from "./index.js";

// The view properties depend only on the history the store hands the engine: core's engine meets them at full runs
// in context-simple's conformance. What the server can get wrong (a message altered or lost, order, a replace or a
// clear, concurrent calls, what survives a restart) is proven by store-conformance.test.ts and, on generated
// histories, by restart, resume, clear and concurrency here, which keep their full runs with every other property
// that is not a view property (any the kit adds later included) and the structural checks. The view properties
// run at a quarter of the runs over the server.
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

// Each instance opens the session the kit names: a new one, unless the kit is restarting one.
describeWithPostgres("context-postgres on a real server", (connectionString) => {
  const config = ({ sessionId }: { sessionId: string }) => ({ connectionString, schema: "ctxkit_test", sessionId });
  describeContextManager("context-postgres", contextPostgres, { config, restart: true, only: [...STRUCTURAL_CHECKS, ...STORE_PROPERTIES] });
  describeContextManager("context-postgres, view properties", contextPostgres, { config, restart: true, only: VIEW_PROPERTIES, runs: 25 });
});
