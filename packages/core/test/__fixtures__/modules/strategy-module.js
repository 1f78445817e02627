// A minimal valid strategy module: its strategy changes nothing and remembers its config.
import { z } from "zod";

export const meta = { type: "strategy", name: "fixture-strategy" };

export const configSchema = z.strictObject({ keep: z.number().int().nonnegative().default(3) });

export function createStrategy(config, coordinator) {
  const options = configSchema.parse(config);
  return {
    name: "fixture-strategy",
    options,
    coordinator,
    apply: (view) => ({ view, applied: false }),
  };
}

export function mount() {}
