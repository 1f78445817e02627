// The tool each result in a view answers, by name: a result carries only its call id, the call carries the name.
import type { ViewDraft } from "../pipeline/strategy.js";

/** For every tool entry of `view`, its position and the name of the call it answers (`message.name` when the call is not found). */
export function findToolNames(view: ViewDraft): Map<number, string> {
  const names = new Map<number, string>();
  for (const unit of view.units) {
    if (unit.kind !== "tool") continue;
    const opener = view.entries[unit.start]!.message;
    const callNames = new Map<string, string>();
    if (opener.role === "assistant") for (const call of opener.tool_calls ?? []) callNames.set(call.id, call.function.name);
    for (let position = unit.start + 1; position < unit.end; position += 1) {
      const message = view.entries[position]!.message;
      if (message.role !== "tool") continue;
      names.set(position, callNames.get(message.tool_call_id) ?? message.name ?? "");
    }
  }
  return names;
}
