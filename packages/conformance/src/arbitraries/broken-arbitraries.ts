// Fragments of histories that were already broken when they arrived: a crash, a cancellation, a bad import.
import type { Message } from "@ctxkit/core";
import fc from "fast-check";
import { userMessageArbitrary } from "./message-arbitraries.js";
import {
  callMessageArbitrary,
  toCallMessage,
  toolOutputArbitrary,
  toResultMessage,
  type ToolOutputOptions,
} from "./tool-unit-arbitraries.js";

/** A call message where at least one call never got its result; at the end of a history, a turn still running. */
export function danglingCallArbitrary(options: ToolOutputOptions = {}): fc.Arbitrary<Message[]> {
  return callMessageArbitrary(options).chain(({ calls, content }) =>
    fc
      .shuffledSubarray(calls, { maxLength: calls.length - 1 })
      .map((answered) => [toCallMessage(calls, content), ...answered.map(toResultMessage)]),
  );
}

/** A result whose id no call uses: the `orphan_` prefix never comes out of `toolCallIdArbitrary`. */
export function orphanResultArbitrary(options: ToolOutputOptions = {}): fc.Arbitrary<Message[]> {
  return fc
    .tuple(fc.nat({ max: 999 }), toolOutputArbitrary(options))
    .map(([suffix, content]): Message[] => [{ role: "tool", tool_call_id: `orphan_${suffix}`, content }]);
}

/** A user message slipped between a call and its results, so the results are not adjacent to it. */
export function nonAdjacentResultArbitrary(options: ToolOutputOptions = {}): fc.Arbitrary<Message[]> {
  return fc
    .tuple(callMessageArbitrary(options), userMessageArbitrary())
    .map(([{ calls, content }, user]) => [toCallMessage(calls, content), user, ...calls.map(toResultMessage)]);
}
