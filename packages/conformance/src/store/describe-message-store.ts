// One behavioural suite for any MessageStore: each backend's test file is two lines that call it.
import { describe, it } from "vitest";
import { type MessageStoreFactory, type MessageStoreSuiteOptions, storeChecks } from "./store-checks.js";

export type { MessageStoreFactory, MessageStoreSuiteOptions } from "./store-checks.js";
export type { FaultyStore, FreezableStore, StoreFaultHooks } from "./store-fault-checks.js";
export type { CorruptRecordKind, CredentialStores, StoreHostileHooks } from "./store-hostile-checks.js";

/**
 * Registers the store contract's checks (see `storeChecks`) for `factory`'s stores in vitest, one test
 * each; a check whose hook the backend does not offer is registered as skipped, saying which hook.
 */
export function describeMessageStore(name: string, factory: MessageStoreFactory, options: MessageStoreSuiteOptions = {}): void {
  describe(`${name} keeps the MessageStore contract`, () => {
    for (const check of storeChecks(factory, options)) {
      if (check.skipped !== undefined) it.skip(`${check.title} (skipped: ${check.skipped})`, () => {});
      else it(check.title, () => check.run(), check.timeoutMs);
    }
  });
}
