// mount() returns a promise that never settles, and holds nothing that keeps the process alive.
import { configSchema } from "./working-module.mjs";

export const meta = { type: "context", name: "never-mounts" };
export { configSchema };

export function mount() {
  return new Promise(() => {});
}
