// Shared check: an operation left the stored history exactly as it was given.
import type { Message } from "@ctxkit/core";
import { expectSameHistory } from "../checks/expect-same-history.js";
import type { ManagerDriver } from "../subject/manager-driver.js";

export async function expectStoredHistory(driver: ManagerDriver, history: readonly Message[], after: string): Promise<void> {
  expectSameHistory(await driver.manager.getMessages(), history, `after ${after}`);
}
