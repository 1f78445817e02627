// Contribution channels: modules offer values (e.g. the events they emit) that anyone can collect on demand.
import { ContextArgumentError } from "../errors.js";
import type { HandlerErrorReporter } from "./handler-error.js";

/** The channels ctxkit itself defines, and the value each contributor returns. */
export interface ContributionChannels {
  /** The event names a module emits, e.g. `["context:pre_compact", "context:post_compact"]`. */
  "observability.events": readonly string[];
}

export type ContributionOf<Channel extends string> = Channel extends keyof ContributionChannels ? ContributionChannels[Channel] : unknown;

/** Returning `undefined` means "nothing to contribute this time". */
export type Contributor<Value = unknown> = () => Value | undefined | Promise<Value | undefined>;

export interface ContributorRegistry {
  /** Registering a name again replaces the earlier contributor in its original position. */
  registerContributor<Channel extends string>(
    channel: Channel,
    name: string,
    contributor: Contributor<ContributionOf<Channel>>,
  ): () => void;
  /** Calls every contributor in registration order; failures are reported and skipped. */
  collectContributions<Channel extends string>(channel: Channel): Promise<Array<ContributionOf<Channel>>>;
}

export function createContributorRegistry(reportError: HandlerErrorReporter): ContributorRegistry {
  const channels = new Map<string, Map<string, Contributor>>();

  function registerContributor(channel: string, name: string, contributor: Contributor): () => void {
    if (typeof contributor !== "function") {
      throw new ContextArgumentError(`registerContributor("${String(channel)}", "${String(name)}")`, [
        { path: "contributor", message: `needs a function, got ${typeof contributor}` },
      ]);
    }
    const contributors = channels.get(channel) ?? new Map<string, Contributor>();
    contributors.set(name, contributor);
    channels.set(channel, contributors);
    return () => {
      // Only remove what this call registered, not a later replacement under the same name.
      if (contributors.get(name) === contributor) contributors.delete(name);
    };
  }

  async function collectContributions(channel: string): Promise<unknown[]> {
    const contributions: unknown[] = [];
    for (const [name, contributor] of [...(channels.get(channel) ?? [])]) {
      try {
        const value = await contributor();
        if (value !== undefined) contributions.push(value);
      } catch (error) {
        reportError(error, { kind: "contributor", channel, name });
      }
    }
    return contributions;
  }

  return {
    registerContributor,
    // The channel map ties each channel to its value type; the registry stores them untyped.
    collectContributions: collectContributions as ContributorRegistry["collectContributions"],
  };
}
