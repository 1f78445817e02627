// Invariant 5: what every view must keep. The minimal view is the system and developer messages, the
// pinned messages, and the latest user message with whatever follows it (or the last unit, when no
// user message exists). What follows the latest user message may be shortened, never dropped.
import type { Message } from "@ctxkit/core";
import { isInstruction, isPinned, findToolUnits, repairToolPairs } from "@ctxkit/core/kit";
import type { RequiredMessage } from "./match-history.js";

/**
 * The history messages every view of `history` must hold, in history order. Results that repair leaves
 * out (orphans, results not adjacent to their call) are not required: a view must not contain them.
 */
export function findRequiredMessages(history: readonly Message[]): RequiredMessage[] {
  const repaired = repairToolPairs(history);
  const kept = repaired.messages.flatMap((message, position) => {
    const source = repaired.sources[position];
    return source === null || source === undefined ? [] : [{ message, historyIndex: source, position }];
  });
  let turnStart = -1;
  kept.forEach((entry, index) => {
    if (entry.message.role === "user") turnStart = index;
  });
  const hasUser = turnStart >= 0;
  if (!hasUser) {
    const lastUnit = findToolUnits(repaired.messages).at(-1);
    turnStart = lastUnit === undefined ? kept.length : kept.findIndex((entry) => entry.position >= lastUnit.start);
    if (turnStart < 0) turnStart = kept.length;
  }
  const required: RequiredMessage[] = [];
  kept.forEach((entry, index) => {
    const { message, historyIndex } = entry;
    if (isInstruction(message)) required.push({ historyIndex, message, mayShorten: false, why: `a ${message.role} message` });
    else if (isPinned(message)) required.push({ historyIndex, message, mayShorten: false, why: "a pinned message" });
    else if (hasUser && index === turnStart) required.push({ historyIndex, message, mayShorten: false, why: "the latest user message" });
    else if (index >= turnStart) {
      const why = hasUser ? "part of the current turn (after the latest user message)" : "part of the last unit (no user message yet)";
      required.push({ historyIndex, message, mayShorten: true, why });
    }
  });
  return required;
}
