// mount() never settles, and starts a timer that keeps the process alive forever.
import { configSchema } from "./working-module.mjs";

export const meta = { type: "context", name: "mount-keeps-timer" };
export { configSchema };

export function mount() {
  return new Promise(() => {
    setInterval(() => {}, 1_000);
  });
}
