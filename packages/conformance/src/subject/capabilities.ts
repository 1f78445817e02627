// Which optional parts of the protocol a manager has, detected or declared, and why one is skipped.
import { canCompact, canRecoverOverflow, canReportUsage, type ContextManager } from "@ctxkit/core";

export type CapabilityName = "compact" | "recoverOverflow" | "usage" | "events";

export const CAPABILITY_NAMES: readonly CapabilityName[] = ["compact", "recoverOverflow", "usage", "events"];

/** `true` asserts the capability (a missing one then fails), `false` skips it, absent detects it. */
export type CapabilityFlags = Partial<Record<CapabilityName, boolean>>;

export interface ResolvedCapability {
  readonly enabled: boolean;
  /** Why a disabled capability is skipped, or why a declared one is missing. */
  readonly reason?: string;
  /** Declared with `true` but the manager does not have it. */
  readonly missing?: boolean;
}

export type ResolvedCapabilities = Record<CapabilityName, ResolvedCapability>;

function detect(manager: ContextManager, name: CapabilityName, hasEvents: boolean): boolean {
  if (name === "compact") return canCompact(manager);
  if (name === "recoverOverflow") return canRecoverOverflow(manager);
  if (name === "usage") return canReportUsage(manager);
  return hasEvents;
}

const NOT_DETECTED: Record<CapabilityName, string> = {
  compact: "the manager has no compact()",
  recoverOverflow: "the manager has no recoverOverflow()",
  usage: "the manager has no usage()",
  events: "events cannot be observed: pass a module (its coordinator's hooks) or options.subscribe for a factory",
};

export function resolveCapabilities(manager: ContextManager, hasEvents: boolean, flags: CapabilityFlags = {}): ResolvedCapabilities {
  const resolved = {} as ResolvedCapabilities;
  for (const name of ["compact", "recoverOverflow", "usage", "events"] as const) {
    const flag = flags[name];
    const present = detect(manager, name, hasEvents);
    if (flag === false) resolved[name] = { enabled: false, reason: `disabled by options.capabilities.${name}` };
    else if (present) resolved[name] = { enabled: true };
    else if (flag === true) resolved[name] = { enabled: false, missing: true, reason: `declared, but ${NOT_DETECTED[name]}` };
    else resolved[name] = { enabled: false, reason: NOT_DETECTED[name] };
  }
  return resolved;
}
