// An AI message's tool calls between ctxkit (arguments as the model wrote them) and LangChain (arguments parsed).
import type { ToolCall } from "@ctxkit/core";
import { argumentsFromToolInput, isRecord, toolInputFromArguments, type InputRecord } from "@ctxkit/core/kit";
import type { ToolCall as LangchainToolCall } from "@langchain/core/messages/tool";

/** A call as Chat Completions writes it, which LangChain keeps in `additional_kwargs.tool_calls`. */
export interface RawToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/**
 * The calls as LangChain's `tool_calls`, every one of them: arguments that are not a JSON object travel as
 * `{ ctxkit_unparsed_arguments: "<the text>" }`, the kit's policy for providers that take arguments parsed, since
 * a call left in `invalid_tool_calls` is not sent by every integration, and its result would then answer nothing.
 * `raw` keeps the exact argument strings beside them, as `ChatOpenAI` keeps a response's.
 */
export function toLangchainToolCalls(calls: readonly ToolCall[]): { toolCalls: LangchainToolCall[]; raw: RawToolCall[] } {
  return {
    toolCalls: calls.map((call) => ({
      type: "tool_call",
      id: call.id,
      name: call.function.name,
      args: toolInputFromArguments(call.function.arguments),
    })),
    raw: calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.function.name, arguments: call.function.arguments },
    })),
  };
}

function isSameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

/** The exact argument strings by call id, from `additional_kwargs.tool_calls` when it holds them. */
function rawArguments(additional: InputRecord | undefined): Map<string, string> {
  const found = new Map<string, string>();
  const raw = additional?.value["tool_calls"];
  if (!Array.isArray(raw)) return found;
  for (const call of raw) {
    if (!isRecord(call) || typeof call["id"] !== "string" || !isRecord(call["function"])) continue;
    const text = call["function"]["arguments"];
    if (typeof text === "string") found.set(call["id"], text);
  }
  return found;
}

/**
 * An AI message's `tool_calls` and `invalid_tool_calls` as ctxkit calls, in the order the model made them when
 * `additional_kwargs.tool_calls` records it. A call's arguments are the exact string the model wrote when that
 * string still parses to its `args`, otherwise its `args` as JSON; an invalid call's are its raw `args` text.
 */
export function fromLangchainToolCalls(entry: InputRecord): ToolCall[] {
  const additional = entry.optionalRecord("additional_kwargs");
  const exact = rawArguments(additional);
  const valid = (entry.optionalRecords("tool_calls") ?? []).map((call): ToolCall => {
    const id = call.nonEmptyString("id");
    const args = call.value["args"];
    const written = exact.get(id);
    const text = written !== undefined && isSameJson(written, args) ? written : argumentsFromToolInput(args);
    return { id, type: "function", function: { name: call.nonEmptyString("name"), arguments: text } };
  });
  const invalid = (entry.optionalRecords("invalid_tool_calls") ?? []).map(
    (call): ToolCall => ({
      id: call.nonEmptyString("id"),
      type: "function",
      function: { name: call.nonEmptyString("name"), arguments: call.optionalString("args") ?? "" },
    }),
  );
  const calls = [...valid, ...invalid];
  const order = [...exact.keys()];
  const rank = (call: ToolCall) => {
    const position = order.indexOf(call.id);
    return position < 0 ? order.length : position;
  };
  return calls
    .map((call, index) => ({ call, index }))
    .sort((a, b) => rank(a.call) - rank(b.call) || a.index - b.index)
    .map(({ call }) => call);
}
