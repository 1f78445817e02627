// Partitions messages into units. Results pair with calls by adjacency, never by a global id lookup,
// because real sessions reuse an id in a later turn.
import { hasToolCalls, type Message } from "../messages/message.js";
import type { ToolUnit } from "./tool-unit.js";

/**
 * Splits `messages` into consecutive units covering every message exactly once, in order.
 * A tool unit is an assistant message with tool calls followed by the tool messages right after it
 * that answer its calls, each call at most once. Anything else is a unit of one.
 */
export function findToolUnits(messages: readonly Message[]): ToolUnit[] {
  const units: ToolUnit[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index]!;
    const start = index;
    index += 1;
    if (hasToolCalls(message)) {
      // A list, not a set: a unit has a few calls, and this runs for every unit of every draft. A repeated
      // id is listed once, so it is answered once, as a set would have it.
      const unanswered: (string | undefined)[] = [];
      for (const call of message.tool_calls) if (!unanswered.includes(call.id)) unanswered.push(call.id);
      while (index < messages.length) {
        const next = messages[index]!;
        const position = next.role === "tool" ? unanswered.indexOf(next.tool_call_id) : -1;
        if (position < 0) break;
        unanswered[position] = undefined;
        index += 1;
      }
      units.push({ start, end: index, kind: "tool" });
    } else {
      units.push({ start, end: index, kind: "single" });
    }
  }
  return units;
}
