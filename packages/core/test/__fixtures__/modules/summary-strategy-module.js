// A stand-in for the summary strategy module: its strategy changes nothing and remembers the config a preset gave it.
import { z } from "zod";

export const meta = { type: "strategy", name: "fixture-summary" };

export const configSchema = z.strictObject({ provider: z.string().optional() });

export function createStrategy(config) {
  return { name: "summary", config: configSchema.parse(config), apply: (view) => ({ view, applied: false }) };
}

export function mount() {}
