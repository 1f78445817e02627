// Repairs a history that was already broken when it arrived, so a view built from it is valid.
import { deepFreeze } from "../messages/deep-freeze.js";
import { hasToolCalls, type AssistantMessage, type Message, type ToolCall, type ToolMessage } from "../messages/message.js";
import type { ToolPairRepair } from "./tool-unit.js";

export interface RepairResult {
  /** A sequence `checkToolPairs` finds nothing wrong with. */
  messages: Message[];
  /** `sources[i]` is the index in the input of `messages[i]`, or `null` for a synthetic message. */
  sources: (number | null)[];
  /** One per assistant message whose missing results were synthesized, one per tool message left out. */
  repairs: ToolPairRepair[];
}

const MISSING_RESULT_TEXT =
  "[ctxkit] The result of this tool call is missing: the call was interrupted before it returned (for example by a crash or a cancellation). Do not assume it succeeded.";

function createMissingResult(toolCallId: string): ToolMessage {
  return deepFreeze({
    role: "tool",
    tool_call_id: toolCallId,
    content: MISSING_RESULT_TEXT,
    metadata: { ctxkit: { source: "repair", kind: "dangling_call" } },
  });
}

/**
 * Whether `messages` from `from` on need no repair: each call answered right after it, once, and no other
 * result. The common case, checked on every request and over a whole history on its first view.
 */
export function hasNothingToRepair(messages: readonly Message[], from = 0): boolean {
  const check = new PairCheck();
  for (let index = from; index < messages.length; index += 1) if (!check.accepts(messages[index]!)) return false;
  return check.isComplete;
}

/**
 * `hasNothingToRepair` one message at a time, for a loop that reads each message anyway (a first view's
 * entries are made while they are checked). A call alone in its message (most of them) is compared with the
 * result after it, and a message of several calls searches their few ids in an array, not a set.
 */
export class PairCheck {
  private unanswered: (string | undefined)[] = [];
  private awaited = 0;

  /** Takes the next message; false once it breaks the rule, when the messages need repair. */
  accepts(message: Message): boolean {
    if (this.awaited > 0) {
      const position = message.role === "tool" ? this.unanswered.indexOf(message.tool_call_id) : -1;
      if (position < 0) return false;
      this.unanswered[position] = undefined;
      this.awaited -= 1;
      return true;
    }
    if (message.role === "tool") return false;
    if (!hasToolCalls(message)) return true;
    const calls = message.tool_calls;
    this.unanswered = [];
    for (const call of calls) {
      if (this.unanswered.includes(call.id)) return false;
      this.unanswered.push(call.id);
    }
    this.awaited = calls.length;
    return true;
  }

  /** Whether every call taken so far is answered: no call waits for its results. */
  get isComplete(): boolean {
    return this.awaited === 0;
  }
}

/**
 * A provider rejects one message that uses an id twice, and its results cannot say which of the calls
 * they answer. The least surprising valid repair keeps the conversation and the first call under each
 * id (the one the first result pairs with) and leaves out the later calls under the same id, together
 * with any result that then answers nothing. This is the one place where the output holds a new object
 * instead of the input's: a frozen shallow copy with fewer calls, still sourced to the input message.
 * `parseMessage` already rejects such messages, so only histories that bypass it get here.
 */
function withoutRepeatedCallIds(message: AssistantMessage & { tool_calls: ToolCall[] }): AssistantMessage & { tool_calls: ToolCall[] } {
  const seen = new Set<string>();
  const calls = message.tool_calls.filter((call) => {
    if (seen.has(call.id)) return false;
    seen.add(call.id);
    return true;
  });
  if (calls.length === message.tool_calls.length) return message;
  Object.freeze(calls);
  return Object.freeze({ ...message, tool_calls: calls });
}

/**
 * Returns a valid sequence built from `messages`, in their order: a dangling call gets a synthetic
 * result right after its unit's existing results, and a result that answers no call of the assistant
 * message opening its unit (orphan, not adjacent, or a second answer) is left out. The input's message
 * objects are reused, never copied or mutated. O(n).
 */
export function repairToolPairs(messages: readonly Message[]): RepairResult {
  if (hasNothingToRepair(messages)) {
    return { messages: messages.slice(), sources: messages.map((_message, index) => index), repairs: [] };
  }
  const output: Message[] = [];
  const sources: (number | null)[] = [];
  const repairs: ToolPairRepair[] = [];
  const unanswered = new Set<string>();
  let unit: { index: number; calls: readonly ToolCall[] } | undefined;

  const closeUnit = (): void => {
    if (unit !== undefined && unanswered.size > 0) {
      const missing = unit.calls.filter((call) => unanswered.has(call.id)).map((call) => call.id);
      for (const toolCallId of missing) {
        output.push(createMissingResult(toolCallId));
        sources.push(null);
      }
      repairs.push({ kind: "dangling_call", toolCallIds: missing, index: unit.index });
    }
    unanswered.clear();
    unit = undefined;
  };

  messages.forEach((message, index) => {
    if (message.role === "tool") {
      if (unanswered.delete(message.tool_call_id)) {
        output.push(message);
        sources.push(index);
      } else {
        repairs.push({ kind: "orphan_result", toolCallIds: [message.tool_call_id], index });
      }
      return;
    }
    closeUnit();
    const kept = hasToolCalls(message) ? withoutRepeatedCallIds(message) : message;
    output.push(kept);
    sources.push(index);
    if (hasToolCalls(kept)) {
      unit = { index, calls: kept.tool_calls };
      for (const call of kept.tool_calls) unanswered.add(call.id);
    }
  });
  closeUnit();
  // A dangling call is only known when its unit closes; report repairs in message order all the same.
  repairs.sort((first, second) => first.index - second.index);
  return { messages: output, sources, repairs };
}
