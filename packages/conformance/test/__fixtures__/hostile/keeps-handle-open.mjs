// A working manager whose module starts a server on its first mount and never closes it, not even in its cleanup.
import { createServer } from "node:net";
import { configSchema, mountWorking } from "./working-module.mjs";

export const meta = { type: "context", name: "keeps-handle-open" };
export { configSchema };

let isListening = false;

export function mount(coordinator, config) {
  if (!isListening) createServer().listen(0, "127.0.0.1");
  isListening = true;
  return mountWorking(coordinator, meta.name, config);
}
