// A Messages client whose every request is the manager's view: the loop driven by ctxkit, streamed or not.
import {
  estimateCounter,
  reportProviderUsage,
  sendWithRecovery,
  type ContextManager,
  type EventHandler,
  type Message,
  type Provider,
} from "@ctxkit/core";
import {
  canVerify,
  parseProviderUsage,
  provenanceOf,
  runTurn,
  storedStream,
  type ContextStream,
  type TurnInFlight,
} from "@ctxkit/core/kit";
import type Anthropic from "@anthropic-ai/sdk";
import type {
  Message as AnthropicResponse,
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages";
import { fromAnthropicMessages } from "../from-anthropic-messages.js";
import { toAnthropicMessages, type AnthropicRequest, type ToAnthropicOptions } from "../to-anthropic-messages.js";
import { fromLatestCompaction, toCompactionRecords } from "../compaction/compaction-records.js";
import { appliedEditsOf, withAppliedEdits, withClearedTokens } from "../compaction/applied-edits.js";
import { ANTHROPIC_USAGE_FIELDS } from "./anthropic-usage.js";
import { isPromptTooLongError } from "./is-prompt-too-long-error.js";
import { ANTHROPIC_PROVIDER, anthropicProvenance, forAnthropicModel } from "../anthropic-provenance.js";
import { messageAssembly } from "./message-assembly.js";

/** The SDK's per-request options (`signal`, `timeout`, `headers`), as its `create` takes them. */
type AnthropicRequestOptions = Parameters<Anthropic["messages"]["create"]>[1];

export interface ContextMessagesOptions extends Omit<ToAnthropicOptions, "targetModel"> {
  /**
   * Each stored answer records its model (`metadata.provenance`), and each request leaves out the thinking blocks
   * and compaction items another model produced (a compaction summary goes as text), so switching `model`
   * mid-session is never refused. `false` sends every stored item as it is, whichever model produced it. Default: true.
   */
  checkProvenance?: boolean;
  /** The model's window (`contextWindow`, `maxOutputTokens`), which sets the budget of every view. */
  provider?: Provider;
  /** A fixed budget instead; the manager's `maxTokens` applies when neither is given. */
  tokenBudget?: number;
  /**
   * When the API rejects a request as too long, retry it once on the manager's smaller view
   * (`recoverOverflow`); a second rejection throws `ContextOverflowError`. Default: true.
   */
  recoverOverflow?: boolean;
  /** Receives `context:usage_rejected` when the API reports a usage that is no count (the turn is kept, the usage ignored). */
  onEvent?: EventHandler;
}

export interface ContextMessageParams extends Omit<MessageCreateParamsNonStreaming, "messages" | "stream"> {
  /** Only the messages new since the last call (the user's turn, tool results): the manager holds the rest. */
  messages?: MessageParam[];
  stream?: false;
}

export interface ContextMessageStreamParams extends Omit<MessageCreateParamsStreaming, "messages" | "stream"> {
  /** Only the messages new since the last call (the user's turn, tool results): the manager holds the rest. */
  messages?: MessageParam[];
  /** Streams the answer as the API's server-sent events. */
  stream: true;
}

export interface ContextMessages {
  /**
   * Adds `messages` to the manager, sends its view (tools and `system` counted), adds the response and
   * reports the usage. A request rejected as too long is retried once on a smaller view. A call that
   * rejects leaves the manager as it was: send the same messages again.
   */
  create(params: ContextMessageParams, options?: AnthropicRequestOptions): Promise<AnthropicResponse>;
  /**
   * With `stream: true`, resolves once the API accepted the view (a too-long one already retried on a smaller
   * view) to the events as they arrive. The answer is stored, as a non-streamed one, after `message_stop`; a
   * stream that fails midway, is aborted or left early (`break`) leaves the manager as it was before the call.
   */
  create(
    params: ContextMessageStreamParams,
    options?: AnthropicRequestOptions,
  ): Promise<ContextStream<RawMessageStreamEvent, AnthropicResponse>>;
}

/**
 * `contextMessages(client, manager).create({ model, max_tokens, tools, messages: [newMessage] })`: every
 * request is the manager's view, every response goes into the manager. One per conversation.
 */
export function contextMessages(
  client: Pick<Anthropic, "messages">,
  manager: ContextManager,
  options: ContextMessagesOptions = {},
): ContextMessages {
  const { provider, tokenBudget, recoverOverflow, onEvent, checkProvenance, ...conversion } = options;
  // The previous request's view, so the cache breakpoints land on the prefix both share.
  let previous: readonly Message[] | undefined;
  /** Stores an answer (streamed and assembled, or not) the one way: its blocks and applied edits, then the usage. */
  async function store(turn: TurnInFlight, answer: AnthropicResponse): Promise<void> {
    // Read, converted and checked before the answer is stored: bad usage is ignored, never a failed turn.
    const usage = parseProviderUsage(answer.usage, ANTHROPIC_USAGE_FIELDS);
    const edits = appliedEditsOf(answer);
    // An answer that names no model (a stand-in, say) records none: its blocks then go by type alone.
    const named = typeof answer.model === "string" && answer.model !== "";
    const recorded = named ? { provenance: anthropicProvenance(answer.model) } : {};
    await turn.add(withAppliedEdits(toCompactionRecords(fromAnthropicMessages([answer], recorded)), edits));
    const report = { provider: "Anthropic Messages", ...(onEvent === undefined ? {} : { onEvent }) };
    await reportProviderUsage(manager, usage.usage === undefined ? usage : withClearedTokens(usage.usage, edits), report);
  }

  async function create(
    params: ContextMessageParams | ContextMessageStreamParams,
    requestOptions?: AnthropicRequestOptions,
  ): Promise<AnthropicResponse | ContextStream<RawMessageStreamEvent, AnthropicResponse>> {
    const { messages = [], system, ...rest } = params;
    // Converted whole before anything is stored, so a bad message leaves the manager as it was.
    const added = fromAnthropicMessages(messages);
    const systemText = system === undefined ? "" : typeof system === "string" ? system : system.map((block) => block.text).join("\n");
    const reserveTokens = systemText === "" ? 0 : estimateCounter().count(systemText);
    const targetModel = checkProvenance === false ? undefined : rest.model;
    // The view the API accepted becomes `previous` once it did: a rejected one was never cached.
    let accepted: readonly Message[] | undefined;
    const open = <T>(send: (request: Pick<MessageCreateParamsNonStreaming, "system" | "messages" | "thinking">) => Promise<T>) =>
      sendWithRecovery({
        manager,
        provider: "Anthropic Messages",
        request: {
          ...(provider === undefined ? {} : { provider }),
          ...(tokenBudget === undefined ? {} : { tokenBudget }),
          ...(rest.tools === undefined ? {} : { tools: rest.tools }),
          ...(requestOptions?.signal == null ? {} : { signal: requestOptions.signal }),
          ...(reserveTokens === 0 ? {} : { reserveTokens }),
          // Which model's prompt cache this view fills, for a later summary that would reuse it.
          ...(typeof rest.model === "string" && rest.model !== "" ? { model: rest.model } : {}),
        },
        isOverflow: isPromptTooLongError,
        ...(recoverOverflow === undefined ? {} : { recoverOverflow }),
        send: (view) => {
          // Another model's compaction block is no cut point: it goes as text, and the view is sent whole.
          const sent = fromLatestCompaction(forAnthropicModel(view, targetModel));
          const request = toAnthropicMessages(sent, {
            ...conversion,
            ...(targetModel === undefined ? {} : { targetModel }),
            ...(previous === undefined ? {} : { previous }),
          });
          accepted = sent;
          const thinkingOff = rest.thinking?.type === "enabled" && continuesForeignToolTurn(sent, targetModel);
          return send({ ...withSystem(system, request), ...(thinkingOff ? { thinking: { type: "disabled" as const } } : {}) });
        },
      });
    // Stored only if the whole call succeeds: a rejection (too long, a network error, a bad answer) takes the turn back out.
    const response = await runTurn(manager, async (turn) => {
      await turn.add(added);
      if (rest.stream === true) {
        const streamed = rest;
        // The request's HTTP answer arrives before any event, so an overflow is retried here, before the caller reads.
        const events = await open((request) => client.messages.create({ ...streamed, ...request, stream: true }, requestOptions));
        return storedStream({
          turn,
          events,
          assembly: messageAssembly(),
          provider: "Anthropic Messages",
          signal: requestOptions?.signal,
          store: (answer) => store(turn, answer),
        });
      }
      const { stream: _stream, ...unstreamed } = rest;
      const answer = await open((request) => client.messages.create({ ...unstreamed, ...request }, requestOptions));
      await store(turn, answer);
      return answer;
    });
    previous = accepted;
    return response;
  }

  return { create: create as ContextMessages["create"] };
}

/** The caller's `system` (not stored) goes before the view's own system messages. */
function withSystem(
  system: ContextMessageParams["system"],
  request: AnthropicRequest,
): Pick<MessageCreateParamsNonStreaming, "system" | "messages"> {
  if (system === undefined || system === "" || (Array.isArray(system) && system.length === 0)) return request;
  const given = typeof system === "string" ? [{ type: "text" as const, text: system }] : system;
  return { system: [...given, ...(request.system ?? [])], messages: request.messages };
}

/**
 * Whether the request continues a tool loop whose turn another model began: Anthropic then requires that turn to open
 * with a thinking block when thinking is on, and the other model's cannot be verified, so that one request goes with
 * thinking off (as the API's own error advises); the next turn thinks again.
 */
function continuesForeignToolTurn(view: readonly Message[], targetModel: string | undefined): boolean {
  if (targetModel === undefined || view.at(-1)?.role !== "tool") return false;
  const turn = view.findLast((message) => message.role === "assistant");
  const provenance = turn === undefined ? undefined : provenanceOf(turn);
  return provenance !== undefined && !canVerify(provenance, { provider: ANTHROPIC_PROVIDER, model: targetModel });
}
