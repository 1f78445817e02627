// Hands the provider's own token count to a manager that can use it (ProviderUsageCapability).
import { canTakeProviderUsage, type ContextManager } from "@ctxkit/core";

export interface ReportedUsage {
  inputTokens: number | undefined;
  outputTokens?: number | undefined;
}

/** Does nothing when the provider reported no input count or the manager cannot take one. */
export async function reportUsage(manager: ContextManager, usage: ReportedUsage | undefined): Promise<void> {
  const inputTokens = usage?.inputTokens;
  if (inputTokens === undefined || !canTakeProviderUsage(manager)) return;
  const outputTokens = usage?.outputTokens;
  await manager.reportUsage({ inputTokens, ...(outputTokens === undefined ? {} : { outputTokens }) });
}
