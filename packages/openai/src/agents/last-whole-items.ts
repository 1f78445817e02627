// The last items of a session, cut only between tool units, so a model request built from them is valid.
import type { AgentInputItem } from "./agent-input-item.js";

/**
 * At most `limit` items from the end of `items`. Where the cut would fall inside a tool unit (a result
 * kept whose call is cut off, as parallel calls and their results can be), the partial unit at the start
 * is dropped too, so the part never starts with an orphan result. The end is the end of `items`, so a
 * whole input keeps every call answered.
 */
export function lastWholeItems(items: readonly AgentInputItem[], limit: number): AgentInputItem[] {
  if (!(limit > 0)) return [];
  let start = Math.max(0, items.length - Math.floor(limit));
  // Each result belongs to the nearest call before it with its id (ids may repeat in a long history).
  const latestCall = new Map<string, number>();
  items.forEach((item, index) => {
    if (!("type" in item)) return;
    if (item.type === "function_call") latestCall.set(item.callId, index);
    // Move the start past every unit that the cut splits; each move can only reveal units further on.
    else if (item.type === "function_call_result" && index >= start) {
      const call = latestCall.get(item.callId);
      if (call !== undefined && call < start) start = index + 1;
    }
  });
  return items.slice(start);
}
