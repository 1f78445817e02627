// A strategy module that changes nothing and counts how often it was created, for the CLI's --config test.
import { z } from "zod";

export const meta = { type: "strategy", name: "noop-strategy" };
export const configSchema = z.strictObject({});
export function createStrategy() {
  globalThis.noopStrategiesCreated = (globalThis.noopStrategiesCreated ?? 0) + 1;
  return { name: "noop", apply: (view) => ({ view, applied: false }) };
}
export function mount() {}
