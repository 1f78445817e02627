// Whole histories: instructions, turns and tool units in realistic proportions, optionally broken.
import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { danglingCallArbitrary, nonAdjacentResultArbitrary, orphanResultArbitrary } from "./broken-arbitraries.js";
import { assistantTextArbitrary, instructionArbitrary, userMessageArbitrary } from "./message-arbitraries.js";
import { toolUnitArbitrary } from "./tool-unit-arbitraries.js";

export interface HistoryArbitraryOptions {
  /** Also produce already-broken fragments: dangling calls, orphan results, results not adjacent to their call. Default false. */
  readonly broken?: boolean;
  /** Let a small fraction of tool outputs be huge (200 KB or more). Default true. */
  readonly hugeOutputs?: boolean;
  /** Most segments (a message, a tool unit, a broken fragment) after the leading instructions. Default 10. */
  readonly maxSegments?: number;
  /**
   * End half the histories with a current turn that holds tool units (a user message, then one to three
   * units): the turn a summary is made right before, which random segments reach only now and then. Default false.
   */
  readonly currentTurnWithTools?: boolean;
}

/** One step of a conversation: a single message, a whole tool unit, or a broken fragment. */
export function segmentArbitrary(options: HistoryArbitraryOptions = {}): fc.Arbitrary<Message[]> {
  const outputOptions = { hugeOutputs: options.hugeOutputs !== false };
  const single = (message: fc.Arbitrary<Message>): fc.Arbitrary<Message[]> => message.map((value) => [value]);
  // The first arbitrary is where shrinking heads: a lone user message is the simplest step.
  const valid = [
    { arbitrary: single(userMessageArbitrary()), weight: 4 },
    { arbitrary: single(assistantTextArbitrary()), weight: 3 },
    { arbitrary: toolUnitArbitrary(outputOptions), weight: 5 },
    { arbitrary: single(instructionArbitrary()), weight: 1 },
  ];
  if (options.broken !== true) return fc.oneof({ withCrossShrink: true }, ...valid);
  return fc.oneof(
    { withCrossShrink: true },
    ...valid,
    { arbitrary: danglingCallArbitrary(outputOptions), weight: 1 },
    { arbitrary: orphanResultArbitrary(outputOptions), weight: 1 },
    { arbitrary: nonAdjacentResultArbitrary(outputOptions), weight: 1 },
  );
}

/**
 * A history: usually a system or developer message first, then turns, tool units with one or several
 * parallel calls, instructions anywhere, pinned messages, and (with `broken`) already-broken fragments.
 * Every message passes `parseMessage`; none is frozen, so a test can detect a manager that mutates it.
 */
export function historyArbitrary(options: HistoryArbitraryOptions = {}): fc.Arbitrary<Message[]> {
  const currentTurn =
    options.currentTurnWithTools === true
      ? fc.option(
          fc
            .tuple(
              userMessageArbitrary(),
              fc.array(toolUnitArbitrary({ hugeOutputs: options.hugeOutputs !== false }), { minLength: 1, maxLength: 3 }),
            )
            .map(([user, units]) => [user, ...units.flat()]),
          { nil: [], freq: 2 },
        )
      : fc.constant([]);
  return fc
    .tuple(
      fc.array(instructionArbitrary(), { maxLength: 2 }),
      fc.array(segmentArbitrary(options), { maxLength: options.maxSegments ?? 10 }),
      currentTurn,
    )
    .map(([instructions, segments, turn]) => [...instructions, ...segments.flat(), ...turn]);
}
