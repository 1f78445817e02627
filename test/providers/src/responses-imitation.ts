// A strict imitation of POST /v1/responses (and /v1/responses/compact): stored items, item_reference, OpenAI's errors.
import type { RecordedRequest, Reply } from "./loopback-server.js";
import { openAIError, openAIId, unknownKey } from "./openai-errors.js";
import { DEFAULT_COUNTING, providerTokens, type ProviderCounting } from "./provider-tokens.js";
import { nextMove } from "./scripted-model.js";
import { piecesOf, sseFrame, streamFaultIn, type StreamFault } from "./stream-script.js";
import { isIssuedTo, issueToken, readToken, type Binding } from "./bound-tokens.js";

const TOP_LEVEL = new Set([
  "model",
  "input",
  "instructions",
  "tools",
  "tool_choice",
  "store",
  "previous_response_id",
  "reasoning",
  "include",
  "max_output_tokens",
  "temperature",
  "top_p",
  "parallel_tool_calls",
  "metadata",
  "text",
  "truncation",
  "user",
  "service_tier",
  "stream",
  "prompt_cache_key",
  "safety_identifier",
  "conversation",
  "background",
  "max_tool_calls",
  "prompt",
  "top_logprobs",
  "stream_options",
  "context_management",
  "prompt_cache_retention",
]);
const ITEM_KEYS: Record<string, ReadonlySet<string>> = {
  message: new Set(["type", "role", "content", "id", "status", "phase"]),
  function_call: new Set(["type", "call_id", "name", "arguments", "id", "status", "namespace"]),
  function_call_output: new Set(["type", "call_id", "output", "id", "status"]),
  item_reference: new Set(["type", "id"]),
  reasoning: new Set(["type", "id", "summary", "encrypted_content", "content", "status"]),
  compaction: new Set(["type", "id", "encrypted_content"]),
};
const ID_PREFIX: Record<string, string> = { message: "msg", function_call: "fc", reasoning: "rs", compaction: "cmp" };

type Item = Record<string, unknown> & { type: string };

// What the imitation's encrypted content starts with; each is bound to the model and key that got it (bound-tokens.ts).
const ENCRYPTED_REASONING = "gAAAAB";
const ENCRYPTED_COMPACTION = "gAAAAC";

/** The model and API key of a request: what its encrypted content is bound to. */
function bindingOf(body: Record<string, unknown>, record: RecordedRequest): Binding {
  const authorization = String(record.headers["authorization"] ?? "");
  return { model: String(body["model"]), key: authorization.replace(/^Bearer /, "") };
}

/** Whether an item's encrypted content was issued to another model or key, or not by the imitation at all. */
function hasForeignContent(item: Item, binding: Binding): boolean {
  if (item.type === "reasoning" && item["encrypted_content"] != null)
    return !isIssuedTo(ENCRYPTED_REASONING, item["encrypted_content"], binding);
  if (item.type === "compaction") return !isIssuedTo(ENCRYPTED_COMPACTION, item["encrypted_content"], binding);
  return false;
}

function unknownParameter(key: string): Reply {
  return openAIError(400, `Unknown parameter: '${key}'.`, key, "unknown_parameter");
}

function textsOf(item: Item): string[] {
  switch (item.type) {
    case "message": {
      const content = item["content"];
      if (typeof content === "string") return [content];
      return (content as { text?: string }[]).map((part) => part.text ?? "");
    }
    case "function_call":
      return [String(item["name"]), String(item["arguments"])];
    case "function_call_output":
      return [typeof item["output"] === "string" ? item["output"] : JSON.stringify(item["output"])];
    case "compaction":
      return [readToken(ENCRYPTED_COMPACTION, item["encrypted_content"])?.payload ?? ""];
    default:
      return [JSON.stringify(item)];
  }
}

export class ResponsesImitation {
  /** Output items kept by id, as the service keeps them when `store` is not false. */
  private readonly stored = new Map<string, Item>();
  /** How many item_reference inputs named an item stored under that id. */
  readonly referenced: string[] = [];

  constructor(private readonly counting: ProviderCounting = DEFAULT_COUNTING) {}

  /** Resolves references and checks each item; the first broken rule as the API reports it. */
  private resolve(input: unknown, binding: Binding): { items: Item[] } | { error: Reply } {
    if (typeof input === "string") return { items: [{ type: "message", role: "user", content: input }] };
    if (!Array.isArray(input))
      return {
        error: openAIError(400, "Invalid type for 'input': expected one of a string or array of input items.", "input", "invalid_type"),
      };
    const items: Item[] = [];
    for (const [index, raw] of (input as Record<string, unknown>[]).entries()) {
      const item = { type: "message", ...raw } as Item;
      const allowed = ITEM_KEYS[item.type];
      if (allowed === undefined)
        return { error: openAIError(400, `Invalid value: '${item.type}'.`, `input[${index}].type`, "invalid_value") };
      const extra = unknownKey(raw, allowed);
      if (extra !== undefined) return { error: unknownParameter(`input[${index}].${extra}`) };
      const id = item["id"];
      const prefix = ID_PREFIX[item.type];
      if (typeof id === "string" && prefix !== undefined && !id.startsWith(prefix))
        return {
          error: openAIError(
            400,
            `Invalid 'input[${index}].id': '${id}'. Expected an ID that begins with '${prefix}'.`,
            `input[${index}].id`,
            "invalid_value",
          ),
        };
      if (item.type === "item_reference") {
        const found = this.stored.get(String(id));
        if (found === undefined) return { error: openAIError(404, `Item with id '${String(id)}' not found.`, "input", null) };
        this.referenced.push(String(id));
        items.push(found);
        continue;
      }
      if (hasForeignContent(item, binding))
        return {
          error: openAIError(400, `The encrypted content for item ${String(id)} could not be verified.`, null, "invalid_encrypted_content"),
        };
      items.push(item);
    }
    const calls = new Set(items.filter((item) => item.type === "function_call").map((item) => String(item["call_id"])));
    const outputs = new Set(items.filter((item) => item.type === "function_call_output").map((item) => String(item["call_id"])));
    for (const output of outputs)
      if (!calls.has(output))
        return { error: openAIError(400, `No tool call found for function call output with call_id ${output}.`, "input") };
    for (const call of calls)
      if (!outputs.has(call)) return { error: openAIError(400, `No tool output found for function call ${call}.`, "input") };
    return { items };
  }

  private count(body: Record<string, unknown>, items: readonly Item[]): number {
    const texts = items.flatMap(textsOf);
    if (typeof body["instructions"] === "string") texts.push(body["instructions"]);
    if (body["tools"] !== undefined) texts.push(JSON.stringify(body["tools"]));
    return providerTokens(texts, items.length, this.counting.ratio);
  }

  create(body: Record<string, unknown>, record: RecordedRequest): Reply {
    const extra = unknownKey(body, TOP_LEVEL);
    if (extra !== undefined) return unknownParameter(extra);
    if (body["stream_options"] != null && body["stream"] !== true)
      return openAIError(400, "The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options");
    const binding = bindingOf(body, record);
    const resolved = this.resolve(body["input"], binding);
    if ("error" in resolved) return resolved.error;
    const { items } = resolved;
    const promptTokens = this.count(body, items);
    record.promptTokens = promptTokens;
    if (promptTokens + Number(body["max_output_tokens"] ?? 0) > this.counting.window)
      return openAIError(
        400,
        "Your input exceeds the context window of this model. Please adjust your input and try again.",
        "input",
        "context_length_exceeded",
      );
    const lastUser = items.findLastIndex((item) => item.type === "message" && item["role"] === "user");
    const question = textsOf(items[lastUser] ?? { type: "message", content: "" }).join("");
    const resultsSince = items.slice(lastUser + 1).filter((item) => item.type === "function_call_output").length;
    const move = nextMove(question, resultsSince);
    const effort = (body["reasoning"] as { effort?: string | null } | undefined)?.effort;
    const thought: Item[] =
      effort == null
        ? []
        : [
            {
              type: "reasoning",
              id: openAIId("rs_"),
              summary: [{ type: "summary_text", text: `Deciding the next step for: ${question.slice(0, 30)} 🤔` }],
              ...(((body["include"] as string[] | undefined) ?? []).includes("reasoning.encrypted_content")
                ? { encrypted_content: issueToken(ENCRYPTED_REASONING, binding, question.slice(0, 30)) }
                : {}),
            },
          ];
    const answer: Item[] =
      "call" in move
        ? [
            {
              type: "function_call",
              id: openAIId("fc_"),
              call_id: openAIId("call_"),
              name: "read_file",
              arguments: move.call,
              status: "completed",
            },
          ]
        : [
            {
              type: "message",
              id: openAIId("msg_"),
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: longAnswer(move.answer), annotations: [], logprobs: [] }],
            },
          ];
    const output = [...thought, ...answer];
    if (body["store"] !== false) for (const item of output) this.stored.set(String(item["id"]), item);
    const outputTokens = providerTokens(output.flatMap(textsOf), 0, this.counting.ratio);
    const whole = response(body, output, promptTokens, outputTokens);
    return body["stream"] === true ? streamedResponse(whole, streamFaultIn(question)) : { status: 200, body: whole };
  }

  /** `responses.compact`: the user messages, then one compaction item whose opaque content the imitation can read back. */
  compact(body: Record<string, unknown>, record: RecordedRequest): Reply {
    const extra = unknownKey(body, new Set(["model", "input", "instructions", "previous_response_id", "prompt_cache_key"]));
    if (extra !== undefined) return unknownParameter(extra);
    const binding = bindingOf(body, record);
    const resolved = this.resolve(body["input"], binding);
    if ("error" in resolved) return resolved.error;
    const { items } = resolved;
    record.promptTokens = this.count(body, items);
    const users = items.filter((item) => item.type === "message" && item["role"] === "user");
    const summary = `Summary of ${items.length} items: the files listed build steps; nothing failed.`;
    const compaction: Item = {
      type: "compaction",
      id: openAIId("cmp_"),
      encrypted_content: issueToken(ENCRYPTED_COMPACTION, binding, summary),
    };
    return {
      status: 200,
      body: {
        id: openAIId("resp_"),
        object: "response.compaction",
        created_at: 1_760_000_000,
        output: [...users, compaction],
        usage: usage(record.promptTokens, providerTokens([summary], 0, this.counting.ratio)),
      },
    };
  }
}

/** The Responses model answers at length: old answers are what ctxkit trims, and what a reference would restore. */
function longAnswer(answer: string): string {
  return `${answer}\n${"Details: every step of the build ran in order and each log line was checked. ".repeat(200)}`;
}

function usage(inputTokens: number, outputTokens: number) {
  return {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
}

function response(body: Record<string, unknown>, output: Item[], inputTokens: number, outputTokens: number) {
  return {
    id: openAIId("resp_"),
    object: "response",
    created_at: 1_760_000_000,
    status: "completed",
    error: null,
    incomplete_details: null,
    instructions: body["instructions"] ?? null,
    max_output_tokens: body["max_output_tokens"] ?? null,
    model: body["model"],
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: body["store"] !== false,
    temperature: 1,
    text: { format: { type: "text" } },
    tool_choice: "auto",
    tools: body["tools"] ?? [],
    top_p: 1,
    truncation: "disabled",
    usage: usage(inputTokens, outputTokens),
    metadata: {},
  };
}

/**
 * The response as `stream: true` sends it, each event numbered by `sequence_number`: `response.created` and
 * `response.in_progress` (no output yet), then per output item `response.output_item.added`, its deltas
 * (`response.output_text.delta` inside its content part, `response.function_call_arguments.delta`) and their
 * `…done` events, `response.output_item.done` with the whole item, and `response.completed` with the whole response.
 */
export function streamedResponse(whole: Record<string, unknown> & { output: Item[] }, fault: StreamFault | undefined): Reply {
  const events: Record<string, unknown>[] = [];
  const push = (type: string, fields: Record<string, unknown>) => events.push({ type, ...fields });
  const opening = { ...whole, status: "in_progress", output: [], usage: null };
  push("response.created", { response: opening });
  push("response.in_progress", { response: opening });
  for (const [outputIndex, item] of whole.output.entries()) {
    const itemId = item["id"];
    const at = { item_id: itemId, output_index: outputIndex };
    if (item.type === "message") {
      const part = (item["content"] as { text: string }[])[0]!;
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, status: "in_progress", content: [] } });
      push("response.content_part.added", { ...at, content_index: 0, part: { ...part, text: "" } });
      for (const delta of piecesOf(part.text, 400)) push("response.output_text.delta", { ...at, content_index: 0, delta, logprobs: [] });
      push("response.output_text.done", { ...at, content_index: 0, text: part.text, logprobs: [] });
      push("response.content_part.done", { ...at, content_index: 0, part });
    } else if (item.type === "function_call") {
      push("response.output_item.added", { output_index: outputIndex, item: { ...item, status: "in_progress", arguments: "" } });
      for (const delta of piecesOf(String(item["arguments"]), 7)) push("response.function_call_arguments.delta", { ...at, delta });
      push("response.function_call_arguments.done", { ...at, name: item["name"], arguments: item["arguments"] });
    } else push("response.output_item.added", { output_index: outputIndex, item: { ...item, summary: [] } });
    push("response.output_item.done", { output_index: outputIndex, item });
  }
  push("response.completed", { response: whole });
  const frames = events.map((event, sequence) => sseFrame({ ...event, sequence_number: sequence }, String(event["type"])));
  const half = Math.ceil(frames.length / 2);
  if (fault === "fail")
    return {
      status: 200,
      body: whole,
      events: [
        ...frames.slice(0, half),
        sseFrame(
          {
            type: "error",
            code: "server_error",
            message: "The server had an error while processing your request.",
            param: null,
            sequence_number: half,
          },
          "error",
        ),
      ],
    };
  return { status: 200, body: whole, events: frames, ...(fault === "stall" ? { stallAfter: half } : {}) };
}
