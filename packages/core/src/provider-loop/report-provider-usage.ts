// Hands a provider's usage to a manager that can take it (ProviderUsageCapability), once checked: bad counts are said, not thrown.
import type { EventHandler } from "../engine/context-config.js";
import { canTakeProviderUsage, type ContextManager, type ProviderUsage } from "../protocol.js";
import { parseProviderUsage, type ParsedProviderUsage } from "./parse-provider-usage.js";

export interface ReportProviderUsageOptions {
  /** Names the API in `context:usage_rejected`, e.g. `Anthropic Messages`. */
  provider?: string;
  /** Receives `context:usage_rejected` when the usage is no usable count. */
  onEvent?: EventHandler;
}

function isParsed(usage: ProviderUsage | ParsedProviderUsage): usage is ParsedProviderUsage {
  return !("inputTokens" in usage) && !("outputTokens" in usage);
}

/**
 * Reports `usage` (a `ProviderUsage`, or what `parseProviderUsage` read from a response) to the manager.
 * Does nothing when the provider reported none or the manager cannot take it. A usage that is no count
 * (negative, NaN, missing, an overflowing sum) is ignored and emitted as `context:usage_rejected`: a
 * provider's bad figures never fail a turn the provider answered.
 */
export async function reportProviderUsage(
  manager: ContextManager,
  usage: ProviderUsage | ParsedProviderUsage | undefined,
  options: ReportProviderUsageOptions = {},
): Promise<void> {
  if (usage === undefined) return;
  const parsed = isParsed(usage) ? usage : parseProviderUsage(usage, { input: ["inputTokens"], output: "outputTokens" });
  if (parsed.problems !== undefined) {
    try {
      await options.onEvent?.("context:usage_rejected", { provider: options.provider ?? "provider", problems: parsed.problems });
    } catch {
      // A failing handler is isolated: the turn it reports on already succeeded.
    }
    return;
  }
  if (parsed.usage === undefined || !canTakeProviderUsage(manager)) return;
  await manager.reportUsage(parsed.usage);
}
