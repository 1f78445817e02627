// Finds every way a message sequence breaks the tool-pair invariant, so a provider would reject it.
import { hasToolCalls, type Message } from "../messages/message.js";
import type { ToolPairViolation } from "./tool-unit.js";

/**
 * Returns every tool-pair violation in `messages`; an empty array means a provider accepts the sequence.
 * Pairing is by adjacency only: a tool message answers a call of the assistant message that opens its
 * unit, and each call is answered before the next non-tool message. Ids already called earlier only
 * tell a result that drifted away from its call (`result_not_adjacent`) from one with no call at all
 * (`orphan_result`); they never pair a result.
 */
export function checkToolPairs(messages: readonly Message[]): ToolPairViolation[] {
  const violations: ToolPairViolation[] = [];
  const calledBefore = new Set<string>();
  // The open unit: its assistant message's index and its call ids, each mapped to whether it is answered.
  let unitStart = -1;
  const answered = new Map<string, boolean>();

  const closeUnit = (): void => {
    for (const [toolCallId, isAnswered] of answered) {
      if (!isAnswered) violations.push({ kind: "dangling_call", index: unitStart, toolCallId });
    }
    answered.clear();
    unitStart = -1;
  };

  messages.forEach((message, index) => {
    if (message.role === "tool") {
      const toolCallId = message.tool_call_id;
      const isAnswered = answered.get(toolCallId);
      if (isAnswered === false) answered.set(toolCallId, true);
      else if (isAnswered === true) violations.push({ kind: "duplicate_result", index, toolCallId });
      else if (calledBefore.has(toolCallId)) violations.push({ kind: "result_not_adjacent", index, toolCallId });
      else violations.push({ kind: "orphan_result", index, toolCallId });
      return;
    }
    closeUnit();
    if (!hasToolCalls(message)) return;
    unitStart = index;
    for (const call of message.tool_calls) {
      if (answered.has(call.id)) violations.push({ kind: "duplicate_call_id", index, toolCallId: call.id });
      answered.set(call.id, false);
      calledBefore.add(call.id);
    }
  });
  closeUnit();
  // Dangling calls are only known when their unit closes; report in message order all the same.
  return violations.sort((first, second) => first.index - second.index);
}
