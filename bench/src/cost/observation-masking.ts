// The observation-masking baseline: keep the latest tool outputs, replace older ones with a short placeholder; optionally truncate to the budget.
import type { Message } from "@ctxkit/core";
import { isInstruction, findToolUnits } from "@ctxkit/core/kit";

/** How many of the newest tool outputs masking keeps. */
export const MASKING_KEEP_RECENT = 10;
const PLACEHOLDER = "[older tool output omitted]";

const masked = new WeakMap<Message, Message>();

/** One masked copy per original, so consecutive views share the same objects (and the same bytes). */
function maskedCopy(message: Message): Message {
  let copy = masked.get(message);
  if (copy === undefined) {
    copy = { ...message, content: PLACEHOLDER } as Message;
    masked.set(message, copy);
  }
  return copy;
}

/** `history` with every tool output but the newest `keepRecent` replaced by a placeholder. */
export function maskObservations(history: readonly Message[], keepRecent = MASKING_KEEP_RECENT): Message[] {
  let kept = 0;
  const view = history.slice();
  for (let index = view.length - 1; index >= 0; index -= 1) {
    const message = view[index]!;
    if (message.role !== "tool") continue;
    kept += 1;
    if (kept > keepRecent) view[index] = maskedCopy(message);
  }
  return view;
}

/** `view` with its oldest whole units (never a system message) dropped until it fits `budget`. */
export function truncateToBudget(view: readonly Message[], budget: number, tokensOf: (message: Message) => number): Message[] {
  let tokens = view.reduce((sum, message) => sum + tokensOf(message), 0);
  if (tokens <= budget) return view.slice();
  const dropped = new Set<number>();
  for (const unit of findToolUnits(view)) {
    if (tokens <= budget) break;
    if (isInstruction(view[unit.start]!)) continue;
    for (let index = unit.start; index < unit.end; index += 1) {
      dropped.add(index);
      tokens -= tokensOf(view[index]!);
    }
  }
  return view.filter((_, index) => !dropped.has(index));
}
