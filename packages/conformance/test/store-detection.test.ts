// Each broken store must fail the store-suite check its flaw breaks in every one of 20 runs (a flaw that
// depends on timing, as concurrent appends do, must not slip through by luck), and a healthy store passes them all.
import { describe, expect, it } from "vitest";
import { type MessageStoreSuiteOptions, storeChecks } from "../src/store/store-checks.js";
import * as broken from "./__fixtures__/broken-stores.js";
import * as hostile from "./__fixtures__/hostile-stores.js";
import { recordDetection, SWEEP_SEEDS, sweep } from "./__fixtures__/seed-sweep.js";

const STORE_CASES = [
  { flaw: "hands out its own array", stores: broken.handsOutItsOwnArray, check: "should hand out what it loads as copies" },
  { flaw: "keeps the old state on replace", stores: broken.keepsOldStateOnReplace, check: "should replace the whole content" },
  { flaw: "forgets state deletions", stores: broken.forgetsStateDeletions, check: "should record state changes" },
  { flaw: "reorders concurrent appends", stores: broken.reordersConcurrentAppends, check: "appends in flight at once" },
  { flaw: "loses a write pending at close", stores: broken.losesWritesPendingAtClose, check: "should finish pending writes at close" },
  { flaw: "accepts writes after close", stores: broken.acceptsWritesAfterClose, check: "should finish pending writes at close" },
  { flaw: "reorders object keys", stores: broken.reordersObjectKeys, check: "should give back exactly what it was given" },
  { flaw: "drops the state on clear", stores: broken.clearDropsTheState, check: "should clear the messages and keep the state" },
  {
    flaw: "reports the first append's time as the newest's",
    stores: broken.reportsTheFirstAppendTime,
    check: "should report when its newest message was appended",
  },
  {
    flaw: "replaces over a stale expectation",
    stores: broken.replacesUnconditionally,
    check: "should refuse a replace over a stale expectation",
  },
];

/** Stores that fail the hostile checks, with the hooks those checks need. */
const HOSTILE_CASES = [
  ...(["message", "counters", "state", "key-type"] as const).map((kind) => ({
    flaw: `trusts a corrupt ${kind} record`,
    suite: hostile.trustsCorruptRecords,
    check: `should report a corrupt ${kind} record`,
  })),
  {
    flaw: "keeps the driver's error, secret and all, as the cause",
    suite: hostile.keepsTheSecretInTheCause,
    check: "should keep the connection's secret out",
  },
  {
    flaw: "waits in close() for a frozen network",
    suite: hostile.closeWaitsForAFrozenNetwork,
    check: "should settle close() within its documented bound",
  },
  {
    flaw: "starts its close bound only at its own close(), not at the manager's",
    suite: hostile.startsItsCloseBoundLate,
    check: "should settle close() within its documented bound",
  },
];

/** Whether the store suite's check titled like `title` fails on a fresh set of `stores`. */
async function fails(stores: () => Parameters<typeof storeChecks>[0], title: string, options?: MessageStoreSuiteOptions): Promise<boolean> {
  const check = storeChecks(stores(), options).find((candidate) => candidate.title.startsWith(title) || candidate.title.includes(title));
  if (check === undefined) throw new Error(`no store check titled like "${title}"`);
  return check.run().then(
    () => false,
    () => true,
  );
}

const runs = Array.from({ length: SWEEP_SEEDS }, (_, index) => index);

describe("the store suite catches each broken store in every run", () => {
  it("should pass a healthy store on every check it can run", async () => {
    const checks = storeChecks(broken.healthyStores()).filter((check) => check.skipped === undefined);
    expect(checks.length).toBeGreaterThan(5);
    for (const check of checks) await expect(check.run(), check.title).resolves.toBeUndefined();
  });

  for (const { flaw, stores, check } of STORE_CASES) {
    it(`should catch the store that ${flaw} in every run`, async () => {
      const result = await sweep(runs, () => fails(stores, check));
      recordDetection("stores", flaw, result);
      expect(result.caught, `caught in ${result.caught}/${result.total} runs`).toBe(result.total);
    });
  }

  it("should pass the healthy stores of the hostile checks: corrupt records, a secret, a frozen close", async () => {
    for (const healthy of [hostile.healthyDiskStores, hostile.healthyCredentialStores, hostile.healthyFreezableStores]) {
      const { factory, options } = healthy();
      const checks = storeChecks(factory, options).filter(
        (check) => check.skipped === undefined && HOSTILE_CASES.some((each) => check.title.startsWith(each.check)),
      );
      expect(checks.length).toBeGreaterThan(0);
      for (const check of checks) await expect(check.run(), check.title).resolves.toBeUndefined();
    }
  });

  for (const { flaw, suite, check } of HOSTILE_CASES) {
    it(`should catch the store that ${flaw} in every run`, async () => {
      // The runs at once: each waits on a timer (a close bound), not on the processor.
      const outcomes = await Promise.all(
        runs.map((run) => {
          const { factory, options } = suite();
          return fails(() => factory, check, options).then((isCaught) => ({ run, isCaught }));
        }),
      );
      const missed = outcomes.filter((outcome) => !outcome.isCaught).map((outcome) => outcome.run);
      const result = { caught: runs.length - missed.length, total: runs.length, missed };
      recordDetection("stores", flaw, result);
      expect(result.caught, `caught in ${result.caught}/${result.total} runs`).toBe(result.total);
    }, 60_000);
  }
});
