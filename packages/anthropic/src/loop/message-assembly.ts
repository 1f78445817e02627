// Messages stream events folded into the Message a non-streamed request returns: thinking and signatures as sent, tool input parsed once whole.
import { ContextStreamError } from "@ctxkit/core";
import type { StreamAssembly } from "@ctxkit/core/kit";
import type { Message as AnthropicResponse, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";

type Block = Record<string, unknown> & { type: string };
/** The stable events, plus what the betas add: `compaction_delta`, and `context_management` on `message_delta`. */
type Event = RawMessageStreamEvent & { context_management?: unknown; delta?: Record<string, unknown> };

const PROVIDER = "Anthropic Messages";

/**
 * Folds `stream: true` events into the `Message` the same request returns unstreamed: `message_start` opens it,
 * each block starts, grows by its deltas (`text_delta`, `thinking_delta`, `signature_delta`, `input_json_delta`,
 * `citations_delta`, `compaction_delta`) and stops, `message_delta` brings the stop reason and the final usage.
 * Whole only once `message_stop` came: the SDK ends a cut connection or an aborted request quietly.
 */
export function messageAssembly(): StreamAssembly<RawMessageStreamEvent, AnthropicResponse> {
  let message: (Record<string, unknown> & { content: Block[]; usage: Record<string, unknown> }) | undefined;
  /** A tool block's input as sent, parsed once its block stops. */
  const inputs = new Map<number, string>();
  let stopped = false;
  return {
    add(raw) {
      const event = raw as Event;
      if (event.type === "message_start") {
        message = { ...(event.message as unknown as Record<string, unknown>), content: [], usage: { ...event.message.usage } };
        return;
      }
      if (message === undefined) throw new ContextStreamError(PROVIDER, `its ${event.type} event came before message_start`);
      if (event.type === "content_block_start") message.content[event.index] = { ...(event.content_block as unknown as Block) };
      else if (event.type === "content_block_delta") addDelta(message.content[event.index], event.index, event.delta as Block, inputs);
      else if (event.type === "content_block_stop") {
        const block = message.content[event.index];
        const input = inputs.get(event.index);
        if (block !== undefined && input !== undefined) block["input"] = parseInput(input, event.index);
      } else if (event.type === "message_delta") {
        Object.assign(message, event.delta);
        if (event.context_management != null) message["context_management"] = event.context_management;
        // The counts are the whole message's, sent again when they changed: overwrite, never add.
        for (const [field, value] of Object.entries(event.usage)) if (value != null) message.usage[field] = value;
      } else if (event.type === "message_stop") stopped = true;
    },
    finish() {
      return stopped && message !== undefined ? (message as unknown as AnthropicResponse) : undefined;
    },
  };
}

function addDelta(block: Block | undefined, index: number, delta: Block, inputs: Map<number, string>): void {
  if (block === undefined) throw new ContextStreamError(PROVIDER, `a ${delta.type} came for block ${index}, which never started`);
  const append = (field: string, piece: unknown) => {
    block[field] = String(block[field] ?? "") + String(piece);
  };
  if (delta.type === "text_delta") append("text", delta["text"]);
  else if (delta.type === "thinking_delta") append("thinking", delta["thinking"]);
  else if (delta.type === "signature_delta") block["signature"] = delta["signature"];
  else if (delta.type === "input_json_delta") inputs.set(index, (inputs.get(index) ?? "") + String(delta["partial_json"]));
  else if (delta.type === "citations_delta") block["citations"] = [...((block["citations"] as unknown[] | null) ?? []), delta["citation"]];
  else if (delta.type === "compaction_delta") {
    // The delta carries the block's final value.
    block["content"] = delta["content"];
    if ("encrypted_content" in delta) block["encrypted_content"] = delta["encrypted_content"];
  }
}

function parseInput(json: string, index: number): unknown {
  if (json === "") return {};
  try {
    return JSON.parse(json);
  } catch (error) {
    throw new ContextStreamError(PROVIDER, `the input of tool block ${index} is no JSON once whole`, { cause: error });
  }
}
