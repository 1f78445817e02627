// What a module declares about itself for the kit (its `conformance` export), merged with the command line.
import type { CapabilityFlags } from "../subject/capabilities.js";
import type { SessionSettings } from "../subject/session-settings.js";
import type { CliSettings } from "./parse-arguments.js";

/**
 * A module's own declaration, exported as `conformance`: everything the vitest API can declare.
 * `config` may be a function of each instance's settings (`{ sessionId, summarizer }`), so a module
 * can open the kit's session ids (for `restart`) and mount the kit's summarizer (for `summarizer`).
 */
export interface ConformanceDeclaration {
  readonly config?: unknown;
  readonly restart?: boolean;
  readonly summarizer?: boolean;
  readonly sharedStore?: boolean;
  readonly capabilities?: CapabilityFlags;
  readonly concurrentAdds?: number;
  readonly timeoutMs?: number;
}

export interface DeclaredOptions extends ConformanceDeclaration {}

function readDeclaration(module: unknown): ConformanceDeclaration {
  const declared = (module as { conformance?: unknown } | undefined)?.conformance;
  return typeof declared === "object" && declared !== null ? (declared as ConformanceDeclaration) : {};
}

/**
 * The module's declaration, overridden by the flags given. With `restart` and a JSON config, each
 * instance is mounted with the kit's `sessionId` added to that config, so a restart reopens the session.
 */
export function resolveDeclaredOptions(module: unknown, settings: CliSettings): DeclaredOptions {
  const declared = readDeclaration(module);
  const restart = settings.restart ?? declared.restart;
  const json = settings.config;
  let config = json ?? declared.config;
  if (json !== undefined && restart === true && typeof json === "object" && json !== null && !Array.isArray(json)) {
    config = ({ sessionId }: SessionSettings) => ({ ...json, sessionId });
  }
  const capabilities = { ...declared.capabilities, ...settings.capabilities };
  const concurrentAdds = settings.concurrentAdds ?? declared.concurrentAdds;
  const timeoutMs = settings.timeoutMs ?? declared.timeoutMs;
  const summarizer = settings.summarizer ?? declared.summarizer;
  const sharedStore = settings.sharedStore ?? declared.sharedStore;
  return {
    ...(config === undefined ? {} : { config }),
    ...(restart === undefined ? {} : { restart }),
    ...(summarizer === undefined ? {} : { summarizer }),
    ...(sharedStore === undefined ? {} : { sharedStore }),
    ...(Object.keys(capabilities).length === 0 ? {} : { capabilities }),
    ...(concurrentAdds === undefined ? {} : { concurrentAdds }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
}
