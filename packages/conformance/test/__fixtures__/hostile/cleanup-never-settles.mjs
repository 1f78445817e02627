// Mounts a working manager, but the cleanup mount() returns never settles (a close that waits on a dead server).
import { configSchema, mountWorking } from "./working-module.mjs";

export const meta = { type: "context", name: "cleanup-never-settles" };
export { configSchema };

export async function mount(coordinator, config) {
  await mountWorking(coordinator, meta.name, config);
  return () => new Promise(() => {});
}
