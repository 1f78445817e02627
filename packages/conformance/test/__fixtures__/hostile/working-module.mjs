// A working context module in plain JavaScript (core's engine over a memory store), for the hostile
// fixtures to break one piece at a time. The CLI loads these with plain node, from core's build.
import { createContextManager, MemoryMessageStore } from "@ctxkit/core";
import { contextConfigSchema, mountContextManager } from "@ctxkit/core/kit";

export const configSchema = contextConfigSchema;

/** Mounts a fresh in-memory manager at `context`; `change` may replace its methods. */
export async function mountWorking(coordinator, name, config = {}, change = (manager) => manager) {
  const manager = await createContextManager({ store: new MemoryMessageStore(), moduleName: name, ...config });
  return mountContextManager(coordinator, name, change(manager));
}
