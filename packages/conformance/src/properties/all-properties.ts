// Every property the kit checks, in the order of the contract's invariants, then the optional capabilities.
import { abortProperty } from "./abort.js";
import { budgetInputsProperty } from "./budget-inputs.js";
import { budgetProperty } from "./budget.js";
import { callerMarkersProperty } from "./caller-markers.js";
import { clearProperty } from "./clear.js";
import { compactProperty } from "./compact.js";
import { compactionReceiptsProperty } from "./compaction-receipts.js";
import { compactionFrequencyProperty } from "./compaction-frequency.js";
import { compactionProgressProperty } from "./compaction-progress.js";
import { concurrencyProperty } from "./concurrency.js";
import { eventsProperty } from "./events.js";
import { nonDestructiveProperty } from "./non-destructive.js";
import { orderProperty } from "./order.js";
import { partialCompactionProperty } from "./partial-compaction.js";
import { pairingProperty } from "./pairing.js";
import { preservationProperty } from "./preservation.js";
import { offloadRetrievalProperty } from "./offload-retrieval.js";
import { partialHistoryUnitsProperty } from "./partial-history-units.js";
import { prefixStabilityProperty } from "./prefix-stability.js";
import type { ConformanceProperty } from "./property.js";
import { reasoningIntactProperty } from "./reasoning-intact.js";
import { recoverOverflowProperty } from "./recover-overflow.js";
import { restartProperty } from "./restart.js";
import { resumeProperty } from "./resume.js";
import { sharedStateProperty } from "./shared-state.js";
import { summaryCoverageProperty } from "./summary-coverage.js";
import { undoCompactionProperty } from "./undo-compaction.js";
import { unitIntegrityProperty } from "./unit-integrity.js";
import { usageProperty } from "./usage.js";
import { validationProperty } from "./validation.js";

// Method parameters are bivariant, so each property's own input type widens to `unknown` here.
export const CONFORMANCE_PROPERTIES: readonly ConformanceProperty[] = [
  pairingProperty,
  orderProperty,
  unitIntegrityProperty,
  reasoningIntactProperty,
  nonDestructiveProperty,
  budgetProperty,
  preservationProperty,
  prefixStabilityProperty,
  compactionFrequencyProperty,
  compactionProgressProperty,
  resumeProperty,
  restartProperty,
  clearProperty,
  validationProperty,
  concurrencyProperty,
  eventsProperty,
  abortProperty,
  budgetInputsProperty,
  callerMarkersProperty,
  compactProperty,
  compactionReceiptsProperty,
  undoCompactionProperty,
  partialCompactionProperty,
  recoverOverflowProperty,
  usageProperty,
  summaryCoverageProperty,
  offloadRetrievalProperty,
  partialHistoryUnitsProperty,
  sharedStateProperty,
];

/**
 * The properties of the view alone: each depends only on the history a store hands the engine, so core's
 * engine proves them over the memory store, and a suite over a store whose own conformance proves that
 * history (order, survival, restart, concurrency) may run them at fewer runs (`viewPropertyRuns`). Every
 * other property, any the kit adds later included, keeps its full runs.
 */
export const VIEW_PROPERTIES: readonly string[] = Object.freeze([
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
]);
