// Hands a provider's normalized usage to a manager that can take it (ProviderUsageCapability).
import { canTakeProviderUsage, type ContextManager, type ProviderUsage } from "../protocol.js";

/** Does nothing when the provider reported no usage or the manager cannot take it. */
export async function reportProviderUsage(manager: ContextManager, usage: ProviderUsage | undefined): Promise<void> {
  if (usage === undefined || !canTakeProviderUsage(manager)) return;
  await manager.reportUsage(usage);
}
