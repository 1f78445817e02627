// A strict imitation of POST /v1/messages: Anthropic's checks and error bodies, prompt caching, a scripted model, o200k × 1.2 tokens (or as told).
import { startLoopbackServer, type LoopbackServer, type RecordedRequest, type Reply } from "./loopback-server.js";
import { DEFAULT_COUNTING, providerTokens, type ProviderCounting } from "./provider-tokens.js";
import { nextMove } from "./scripted-model.js";
import { piecesOf, sseFrame, streamFaultIn, type StreamFault } from "./stream-script.js";
import { digestOf, isIssuedTo, issueToken } from "./bound-tokens.js";

const COMPACT_BETA = "compact-2026-09-04";
const TOP_LEVEL = new Set([
  "model",
  "messages",
  "max_tokens",
  "system",
  "tools",
  "tool_choice",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "stream",
  "metadata",
  "thinking",
  "service_tier",
  "container",
  "mcp_servers",
  "context_management",
  "output_config",
  "inference_geo",
]);
const BLOCK_KEYS: Record<string, ReadonlySet<string>> = {
  text: new Set(["type", "text", "cache_control", "citations"]),
  image: new Set(["type", "source", "cache_control"]),
  tool_use: new Set(["type", "id", "name", "input", "cache_control", "caller"]),
  tool_result: new Set(["type", "tool_use_id", "content", "is_error", "cache_control"]),
  thinking: new Set(["type", "thinking", "signature"]),
  redacted_thinking: new Set(["type", "data"]),
  compaction: new Set(["type", "content", "encrypted_content", "signature", "tool_changes", "cache_control"]),
};
const TOOL_USE_ID = /^[a-zA-Z0-9_-]+$/;
// What the imitation's signatures start with; each is bound to the model that issued it (see bound-tokens.ts).
const THINKING_SIGNATURE = "EqQBCkgIBxAB";
const REDACTED_DATA = "EmwKAhgBEgy";
const COMPACTION_SIGNATURE = "c2lnbmVk";
const MAX_BREAKPOINTS = 4;

type Block = Record<string, unknown> & { type: string };
type MessageParam = { role: string; content: string | Block[] } & Record<string, unknown>;

export function anthropicError(status: number, type: string, message: string): Reply {
  return {
    status,
    body: { type: "error", error: { type, message }, request_id: "req_011CVtestimitation0000001" },
    headers: { "request-id": "req_011CVtestimitation0000001" },
  };
}

const invalid = (message: string) => anthropicError(400, "invalid_request_error", message);

/** An invalid_request_error with `details.error_code`, as the API gives the compaction errors. */
function coded(errorCode: string, message: string): Reply {
  const reply = invalid(message);
  const body = reply.body as { error: Record<string, unknown> };
  body.error["details"] = { error_code: errorCode };
  return reply;
}

/** Whether a block carries a signature another model issued, or none the imitation issued at all: the API refuses it. */
function hasForeignSignature(block: Block, model: string): boolean {
  if (block.type === "thinking") return !isIssuedTo(THINKING_SIGNATURE, block["signature"], { model }, digestOf(String(block["thinking"])));
  if (block.type === "redacted_thinking") return !isIssuedTo(REDACTED_DATA, block["data"], { model });
  if (block.type === "compaction" && block["signature"] != null)
    return !isIssuedTo(COMPACTION_SIGNATURE, block["signature"], { model }, digestOf(String(block["content"])));
  return false;
}

function blocksOf(content: string | Block[]): Block[] {
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

function textsOf(block: Block): string[] {
  switch (block.type) {
    case "text":
      return [String(block["text"])];
    case "tool_use":
      return [String(block["name"]), JSON.stringify(block["input"])];
    case "tool_result":
      return typeof block["content"] === "string" ? [block["content"]] : ((block["content"] as Block[] | undefined) ?? []).flatMap(textsOf);
    case "thinking":
      return [String(block["thinking"])];
    case "compaction":
      return [String(block["content"])];
    default:
      return [JSON.stringify(block)];
  }
}

/** The first rule the request breaks, as the API reports it; undefined when it is well formed. */
function check(body: Record<string, unknown>): Reply | undefined {
  const extra = Object.keys(body).find((key) => !TOP_LEVEL.has(key));
  if (extra !== undefined) return invalid(`${extra}: Extra inputs are not permitted`);
  if (typeof body["max_tokens"] !== "number") return invalid("max_tokens: Field required");
  const messages = body["messages"];
  if (!Array.isArray(messages) || messages.length === 0) return invalid("messages: at least one message is required");
  let breakpoints = 0;
  for (const block of Array.isArray(body["system"]) ? (body["system"] as Block[]) : [])
    if (block["cache_control"] !== undefined) breakpoints += 1;
  for (const tool of (body["tools"] as Block[] | undefined) ?? []) if (tool["cache_control"] !== undefined) breakpoints += 1;
  let openToolUses: string[] = [];
  for (const [index, message] of (messages as MessageParam[]).entries()) {
    const messageExtra = Object.keys(message).find((key) => key !== "role" && key !== "content");
    if (messageExtra !== undefined) return invalid(`messages.${index}.${messageExtra}: Extra inputs are not permitted`);
    if (message.role !== "user" && message.role !== "assistant")
      return invalid(`messages.${index}.role: Input should be 'user' or 'assistant'`);
    const opensWithCompaction = index === 0 && Array.isArray(message.content) && message.content[0]?.type === "compaction";
    if (index === 0 && message.role !== "user" && !opensWithCompaction) return invalid('messages: first message must use the "user" role');
    if (index > 0 && (messages as MessageParam[])[index - 1]!.role === message.role)
      return invalid(`messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row`);
    const blocks = blocksOf(message.content);
    const resultIds: string[] = [];
    for (const [position, block] of blocks.entries()) {
      const allowed = BLOCK_KEYS[block.type];
      if (allowed === undefined)
        return invalid(
          `messages.${index}.content.${position}: Input tag '${block.type}' found using 'type' does not match any of the expected tags`,
        );
      const blockExtra = Object.keys(block).find((key) => !allowed.has(key));
      if (blockExtra !== undefined)
        return invalid(`messages.${index}.content.${position}.${block.type}.${blockExtra}: Extra inputs are not permitted`);
      if (block["cache_control"] !== undefined) breakpoints += 1;
      if (hasForeignSignature(block, String(body["model"])))
        return invalid(`messages.${index}.content.${position}: Invalid \`signature\` in \`${block.type}\` block`);
      if (block.type === "compaction" && (index !== 0 || position !== 0))
        return coded(
          "compaction_block_misplaced",
          `messages.${index}.content.${position}: the \`compaction\` block must be the first block of the conversation`,
        );
      if (block.type === "text" && block["text"] === "") return invalid("messages: text content blocks must be non-empty");
      if (block.type === "tool_use" && (message.role !== "assistant" || !TOOL_USE_ID.test(String(block["id"]))))
        return invalid(`messages.${index}.content.${position}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      if (block.type === "tool_result") {
        const id = String(block["tool_use_id"]);
        if (!openToolUses.includes(id))
          return invalid(
            `messages.${index}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        resultIds.push(id);
      }
    }
    const unanswered = openToolUses.filter((id) => !resultIds.includes(id));
    if (unanswered.length > 0)
      return invalid(
        `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    openToolUses =
      message.role === "assistant" ? blocks.filter((block) => block.type === "tool_use").map((block) => String(block["id"])) : [];
  }
  if (openToolUses.length > 0)
    return invalid(
      `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${openToolUses.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
    );
  if (breakpoints > MAX_BREAKPOINTS)
    return invalid(`A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`);
  return undefined;
}

/**
 * With thinking on, the assistant turn a request's tool results answer must open with a thinking block: the API
 * refuses a tool loop continued without its thinking.
 */
function unthoughtToolTurn(messages: readonly MessageParam[]): Reply | undefined {
  const last = messages.at(-1);
  const turn = messages.at(-2);
  if (last?.role !== "user" || turn?.role !== "assistant" || !blocksOf(last.content).some((block) => block.type === "tool_result"))
    return undefined;
  const first = blocksOf(turn.content)[0]?.type;
  if (first === "thinking" || first === "redacted_thinking") return undefined;
  return invalid(
    `messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${first}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`.`,
  );
}

let sequence = 0;
function toolUseId(): string {
  sequence += 1;
  return `toolu_01${String(sequence).padStart(22, "A")}`;
}

export class AnthropicImitation {
  /** Cached prefixes (their serialized blocks up to a breakpoint), as the prompt cache keeps them. */
  private readonly cache = new Set<string>();

  constructor(private readonly counting: ProviderCounting = DEFAULT_COUNTING) {}

  handle(body: Record<string, unknown>, record: RecordedRequest): Reply {
    const { ratio, window } = this.counting;
    if (body["compaction"] !== undefined) return compactRequest(body, record, ratio);
    const error = check(body);
    if (error !== undefined) return error;
    const thinking = body["thinking"] as { type?: string; budget_tokens?: number } | undefined;
    if (
      thinking?.type === "enabled" &&
      !(Number(thinking.budget_tokens) >= 1_024 && Number(thinking.budget_tokens) < Number(body["max_tokens"]))
    )
      return invalid("thinking.enabled.budget_tokens: Input should be at least 1024 and less than max_tokens");
    if (thinking?.type === "enabled") {
      const refused = unthoughtToolTurn(body["messages"] as MessageParam[]);
      if (refused !== undefined) return refused;
    }
    const system =
      typeof body["system"] === "string"
        ? [{ type: "text", text: body["system"] } as Block]
        : ((body["system"] as Block[] | undefined) ?? []);
    const messages = body["messages"] as MessageParam[];
    // The prompt in order (tools, system, messages), block by block, to price the cached prefix.
    const blocks: Block[] = [...system, ...messages.flatMap((message) => blocksOf(message.content))];
    const tools = body["tools"] === undefined ? 0 : providerTokens([JSON.stringify(body["tools"])], 0, ratio);
    const blockTokens = blocks.map((block) => providerTokens(textsOf(block), 0, ratio));
    const promptTokens = tools + blockTokens.reduce((total, tokens) => total + tokens, 0) + Math.ceil(4 * ratio * messages.length);
    record.promptTokens = promptTokens;
    const maxTokens = Number(body["max_tokens"]);
    if (promptTokens > window) return invalid(`prompt is too long: ${promptTokens} tokens > ${window} maximum`);
    if (promptTokens + maxTokens > window)
      return invalid(
        `input length and \`max_tokens\` exceed context limit: ${promptTokens} + ${maxTokens} > ${window}, decrease input length or \`max_tokens\` and try again`,
      );
    // Prompt caching: the prefix up to the last breakpoint is read when it was written before, else written.
    const lastBreakpoint = blocks.findLastIndex((block) => block["cache_control"] !== undefined);
    const prefixKey = JSON.stringify(blocks.slice(0, lastBreakpoint + 1).map(({ cache_control: _cacheControl, ...block }) => block));
    const prefixTokens =
      lastBreakpoint < 0 ? 0 : tools + blockTokens.slice(0, lastBreakpoint + 1).reduce((total, tokens) => total + tokens, 0);
    const isRead = lastBreakpoint >= 0 && this.cache.has(prefixKey);
    if (lastBreakpoint >= 0) this.cache.add(prefixKey);
    const lastUser = messages.findLastIndex(
      (message) => message.role === "user" && blocksOf(message.content).some((block) => block.type === "text"),
    );
    const question = blocksOf(messages[lastUser]?.content ?? "")
      .flatMap(textsOf)
      .join("");
    const resultsSince = messages
      .slice(lastUser + 1)
      .flatMap((message) => blocksOf(message.content))
      .filter((block) => block.type === "tool_result").length;
    const move = nextMove(question, resultsSince);
    const answer: Block[] = [
      ...(thinking?.type === "enabled" ? [thinkingBlock(question, resultsSince, String(body["model"]))] : []),
      ...("call" in move
        ? [{ type: "tool_use", id: toolUseId(), name: "read_file", input: JSON.parse(move.call) }]
        : [{ type: "text", text: move.answer, citations: null }]),
    ];
    const edited = applyEdits(body, record, messages, promptTokens, ratio);
    if ("error" in edited) return edited.error;
    const content = [...edited.compaction, ...answer];
    const reply = {
      status: 200,
      body: {
        id: `msg_01${String(sequence).padStart(22, "B")}`,
        type: "message",
        role: "assistant",
        model: body["model"],
        content,
        stop_reason: "call" in move ? "tool_use" : "end_turn",
        stop_sequence: null,
        context_management: edited.appliedEdits.length === 0 ? null : { applied_edits: edited.appliedEdits },
        usage: {
          input_tokens: promptTokens - prefixTokens - edited.clearedTokens,
          cache_creation_input_tokens: isRead ? 0 : prefixTokens,
          cache_read_input_tokens: isRead ? prefixTokens : 0,
          output_tokens: providerTokens(content.flatMap(textsOf), 0, ratio),
          service_tier: "standard",
        },
      },
    };
    return body["stream"] === true ? streamedMessage(reply.body, streamFaultIn(question)) : reply;
  }
}

/** What the model thought before its move: text with an emoji, and a signature (base64, `=` padded) bound to `model` and the text. */
function thinkingBlock(question: string, resultsSince: number, model: string): Block {
  const thought = `The user asked: ${question.slice(0, 40)} I have ${resultsSince} result(s) so far 🤔, so I decide the next step.`;
  return { type: "thinking", thinking: thought, signature: issueToken(THINKING_SIGNATURE, { model }, digestOf(thought)) };
}

/**
 * The message as `stream: true` sends it: `message_start` with the message, no content and the input usage; each
 * block's `content_block_start` (empty), its deltas (`text_delta`, `thinking_delta` then `signature_delta`,
 * `input_json_delta` of the input's JSON in pieces; a compaction block whole in one `compaction_delta`) and
 * `content_block_stop`; `message_delta` with the stop reason, the applied edits and the whole usage; `message_stop`.
 */
export function streamedMessage(
  message: Record<string, unknown> & { content: Block[]; usage: Record<string, unknown> },
  fault: StreamFault | undefined,
): Reply {
  const { content, usage, context_management: contextManagement, stop_reason: stopReason, stop_sequence: stopSequence } = message;
  const frame = (data: Record<string, unknown> & { type: string }) => sseFrame(data, data.type);
  const blockFrames = content.flatMap((block, index) => {
    const start = (contentBlock: Block) => frame({ type: "content_block_start", index, content_block: contentBlock });
    const delta = (value: Record<string, unknown>) => frame({ type: "content_block_delta", index, delta: value });
    const opening =
      block.type === "text"
        ? [
            start({ type: "text", text: "", citations: null }),
            ...piecesOf(String(block["text"]), 12).map((text) => delta({ type: "text_delta", text })),
          ]
        : block.type === "thinking"
          ? [
              start({ type: "thinking", thinking: "", signature: "" }),
              ...piecesOf(String(block["thinking"]), 16).map((thinking) => delta({ type: "thinking_delta", thinking })),
              delta({ type: "signature_delta", signature: block["signature"] }),
            ]
          : block.type === "tool_use"
            ? [
                start({ ...block, input: {} }),
                delta({ type: "input_json_delta", partial_json: "" }),
                ...piecesOf(JSON.stringify(block["input"]), 7).map((partial) => delta({ type: "input_json_delta", partial_json: partial })),
              ]
            : [
                start({ ...block, content: null }),
                delta({ type: "compaction_delta", content: block["content"], encrypted_content: block["encrypted_content"] }),
              ];
    return [...opening, frame({ type: "content_block_stop", index })];
  });
  const frames = [
    frame({
      type: "message_start",
      message: {
        ...message,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        context_management: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
    ...blockFrames,
    frame({
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: stopSequence, container: null, stop_details: null },
      context_management: contextManagement,
      usage: {
        input_tokens: usage["input_tokens"],
        cache_creation_input_tokens: usage["cache_creation_input_tokens"],
        cache_read_input_tokens: usage["cache_read_input_tokens"],
        output_tokens: usage["output_tokens"],
      },
    }),
    frame({ type: "message_stop" }),
  ];
  const half = Math.ceil(frames.length / 2);
  if (fault === "fail")
    return {
      status: 200,
      body: message,
      events: [...frames.slice(0, half), frame({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })],
    };
  return { status: 200, body: message, events: frames, ...(fault === "stall" ? { stallAfter: half } : {}) };
}

/**
 * Server-side context management (`context_management.edits`, each behind its beta): `clear_tool_uses_20250919`
 * clears the older tool results past its trigger and reports it in `applied_edits`; `compact_20260112` past its
 * trigger opens the response with a compaction block that stands for the whole input.
 */
function applyEdits(
  body: Record<string, unknown>,
  record: RecordedRequest,
  messages: readonly MessageParam[],
  promptTokens: number,
  ratio: number,
): { error: Reply } | { compaction: Block[]; appliedEdits: Block[]; clearedTokens: number } {
  const edits = ((body["context_management"] as { edits?: Block[] } | undefined)?.edits ?? []) as (Block & {
    trigger?: { value?: number };
    keep?: { value?: number };
  })[];
  const betas = String(record.headers["anthropic-beta"] ?? "").split(",");
  const compaction: Block[] = [];
  const appliedEdits: Block[] = [];
  let clearedTokens = 0;
  for (const edit of edits) {
    const trigger = edit.trigger?.value ?? 100_000;
    if (edit.type === "compact_20260112") {
      if (!betas.includes("compact-2026-01-12"))
        return { error: invalid("context_management.edits.0: compact_20260112 requires the compact-2026-01-12 beta") };
      if (promptTokens < trigger) continue;
      const summary = `Compacted ${messages.length} messages (${promptTokens} tokens): the files listed build steps.`;
      compaction.push({
        type: "compaction",
        content: summary,
        encrypted_content: null,
        signature: issueToken(COMPACTION_SIGNATURE, { model: String(body["model"]) }, digestOf(summary)),
      });
    } else if (edit.type === "clear_tool_uses_20250919") {
      if (!betas.includes("context-management-2025-06-27"))
        return { error: invalid("context_management.edits.0: clear_tool_uses_20250919 requires the context-management-2025-06-27 beta") };
      if (promptTokens < trigger) continue;
      const results = messages.flatMap((message) => blocksOf(message.content)).filter((block) => block.type === "tool_result");
      const cleared = results.slice(0, Math.max(0, results.length - (edit.keep?.value ?? 3)));
      if (cleared.length === 0) continue;
      const tokens = cleared.reduce((total, block) => total + providerTokens(textsOf(block), 0, ratio), 0);
      clearedTokens += tokens;
      appliedEdits.push({ type: "clear_tool_uses_20250919", cleared_tool_uses: cleared.length, cleared_input_tokens: tokens });
    } else {
      return {
        error: invalid(
          `context_management.edits.0.type: Input tag '${edit.type}' found using 'type' does not match any of the expected tags`,
        ),
      };
    }
  }
  return { compaction, appliedEdits, clearedTokens };
}

/** The on-demand compaction request: the response holds only a compaction block whose content summarizes `messages`. */
function compactRequest(body: Record<string, unknown>, record: RecordedRequest, ratio: number): Reply {
  const betas = String(record.headers["anthropic-beta"] ?? "").split(",");
  const { compaction, ...rest } = body;
  if (!betas.includes(COMPACT_BETA)) return invalid("compaction: Extra inputs are not permitted");
  if (rest["context_management"] !== undefined) return invalid("compaction: cannot be combined with context_management");
  const config = compaction as Record<string, unknown>;
  if (config["type"] !== "summarize" || Object.keys(config).some((key) => key !== "type" && key !== "instructions"))
    return invalid("compaction.type: Input should be 'summarize'");
  const error = check(rest);
  if (error !== undefined) return error;
  const messages = rest["messages"] as MessageParam[];
  const last = messages.at(-1)!;
  if (last.role === "assistant" && blocksOf(last.content).some((block) => block.type === "tool_use"))
    return coded("compaction_incomplete_turn", "The compaction request ends on an `assistant` turn that is not finished.");
  const texts = messages.flatMap((message) => blocksOf(message.content).flatMap(textsOf));
  record.promptTokens = providerTokens(texts, messages.length, ratio);
  const prompt =
    typeof config["instructions"] === "string" && config["instructions"].trim() !== "" ? "the given instructions" : "the server's prompt";
  const summary = `Summary of ${messages.length} messages, written with ${prompt}: ${texts[0]?.slice(0, 60) ?? ""}`;
  return {
    status: 200,
    body: {
      id: "msg_01CompactionImitation000001",
      type: "message",
      role: "assistant",
      model: rest["model"],
      content: [
        {
          type: "compaction",
          content: summary,
          encrypted_content: null,
          signature: issueToken(COMPACTION_SIGNATURE, { model: String(rest["model"]) }, digestOf(summary)),
        },
      ],
      stop_reason: "compaction",
      stop_sequence: null,
      context_management: null,
      usage: {
        input_tokens: record.promptTokens,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: providerTokens([summary], 0, ratio),
      },
    },
  };
}

/** `counting`: how the imitated model counts tokens and how large its window is (default: 1.2× o200k, 8,192). */
export async function startAnthropicImitation(counting?: ProviderCounting): Promise<LoopbackServer> {
  const imitation = new AnthropicImitation(counting);
  return startLoopbackServer(
    (path, body, record) =>
      path.split("?")[0] === "/v1/messages" ? imitation.handle(body, record) : anthropicError(404, "not_found_error", "Not found"),
    () => invalid("There was an issue with your request body: it is not valid JSON."),
  );
}
