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
  const finder = new ToolUnitFinder();
  for (let index = 0; index < messages.length; index += 1) finder.take(messages[index]!, index);
  return finder.finish(messages.length);
}

/**
 * `findToolUnits` one message at a time, for a loop that reads each message anyway (a draft finds its units
 * while it copies its entries, so each message of a long view is read once).
 */
export class ToolUnitFinder {
  private readonly units: ToolUnit[] = [];
  /** The tool unit still taking results: where it starts and the ids it has not seen answered. */
  private open: { readonly start: number; readonly unanswered: (string | undefined)[] } | undefined;

  /** Takes the message at `index`, the one after the last taken. */
  take(message: Message, index: number): void {
    const { open } = this;
    if (open !== undefined) {
      const position = message.role === "tool" ? open.unanswered.indexOf(message.tool_call_id) : -1;
      if (position >= 0) {
        open.unanswered[position] = undefined;
        return;
      }
      this.units.push({ start: open.start, end: index, kind: "tool" });
      this.open = undefined;
    }
    if (hasToolCalls(message)) {
      // A list, not a set: a unit has a few calls, and this runs for every unit of every draft. A repeated
      // id is listed once, so it is answered once, as a set would have it.
      const unanswered: (string | undefined)[] = [];
      for (const call of message.tool_calls) if (!unanswered.includes(call.id)) unanswered.push(call.id);
      this.open = { start: index, unanswered };
    } else {
      this.units.push({ start: index, end: index + 1, kind: "single" });
    }
  }

  /** The units of the `length` messages taken. */
  finish(length: number): ToolUnit[] {
    if (this.open !== undefined) this.units.push({ start: this.open.start, end: length, kind: "tool" });
    this.open = undefined;
    return this.units;
  }
}
