// Mounts a manager whose getMessagesForRequest never answers (a network call with no timeout).
import { configSchema, mountWorking } from "./working-module.mjs";

export const meta = { type: "context", name: "requests-hang" };
export { configSchema };

export function mount(coordinator, config) {
  return mountWorking(coordinator, meta.name, config, (manager) => {
    manager.getMessagesForRequest = () => new Promise(() => {});
    return manager;
  });
}
