// A Responses client whose every request is the manager's view: the loop driven by ctxkit, streamed or not, compaction items kept.
import { ContextRequestError, reportProviderUsage, sendWithRecovery, type ContextManager, type Message } from "@ctxkit/core";
import { parseProviderUsage, runTurn, storedStream, type ContextStream, type TurnInFlight } from "@ctxkit/core/kit";
import type OpenAI from "openai";
import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseCreateParamsStreaming,
  ResponseInputItem,
  ResponseStreamEvent,
} from "openai/resources/responses/responses";
import { fromResponseInputItems } from "../responses/from-response-input-items.js";
import { fromLatestCompaction, pinCompactionRecords } from "../responses/compaction-records.js";
import { toResponseInputItems } from "../responses/to-response-input-items.js";
import { accountOf, forResponsesModel, openAIProvenance } from "../responses/openai-provenance.js";
import { isContextLengthError } from "./is-context-length-error.js";
import { type ContextLoopOptions, viewRequestOptions } from "./loop-options.js";
import { RESPONSE_USAGE_FIELDS } from "./openai-usage.js";
import { responseAssembly } from "./response-assembly.js";

const PROVIDER = "OpenAI Responses";

type OpenAIRequestOptions = Parameters<OpenAI["responses"]["create"]>[1];

export interface ContextResponseParams
  extends Omit<ResponseCreateParamsNonStreaming, "input" | "stream" | "previous_response_id" | "conversation"> {
  /** Only what is new since the last call (the user's turn, `function_call_output`s): the manager holds the rest. */
  input?: string | ResponseInputItem[];
  stream?: false | null;
}

export interface ContextResponseStreamParams
  extends Omit<ResponseCreateParamsStreaming, "input" | "stream" | "previous_response_id" | "conversation"> {
  /** Only what is new since the last call (the user's turn, `function_call_output`s): the manager holds the rest. */
  input?: string | ResponseInputItem[];
  /** Streams the answer as the API's typed events; `response.completed` carries the usage. */
  stream: true;
}

export interface ContextResponses {
  /**
   * Adds `input` to the manager, sends its view from the latest compaction item on (tools counted), adds the
   * output (a compaction item as a pinned record of its own) and reports the usage. A request rejected as
   * too long is retried once on a smaller view. A call that rejects leaves the manager as it was: send the
   * same input again.
   */
  create(params: ContextResponseParams, options?: OpenAIRequestOptions): Promise<Response>;
  /**
   * With `stream: true`, resolves once the API accepted the view (a too-long one already retried on a smaller
   * view) to the events as they arrive. The output is stored, as a non-streamed one, after `response.completed`;
   * a stream that fails midway, is aborted or left early (`break`) leaves the manager as it was before the call.
   */
  create(params: ContextResponseStreamParams, options?: OpenAIRequestOptions): Promise<ContextStream<ResponseStreamEvent, Response>>;
}

export interface ContextResponsesOptions extends ContextLoopOptions {
  /**
   * Each stored output records its model and account (`metadata.provenance`), and each request leaves out the
   * reasoning and compaction items another model or account produced, so switching `model` mid-session is never
   * refused. `false` sends every stored item as it is, whichever model produced it. Default: true.
   */
  checkProvenance?: boolean;
  /** The account a provenance names. Default: a SHA-256 fingerprint of the client's API key (never the key). */
  account?: string;
}

/** Refuses what would make the server, not the manager, hold the conversation, or what this driver cannot do. */
function refusedKeys(params: ContextResponseParams | ContextResponseStreamParams): ContextRequestError | undefined {
  const given = params as Record<string, unknown>;
  const issues = [
    ...["previous_response_id", "conversation"]
      .filter((key) => given[key] !== undefined && given[key] !== null)
      .map((key) => ({ path: key, message: "the manager holds the conversation and sends it whole: leave it out" })),
  ];
  return issues.length === 0 ? undefined : new ContextRequestError(issues);
}

/**
 * `contextResponses(client, manager).create({ model, tools, input: [newItem] })`: every request is the manager's
 * view as input items, sent inline (never by reference), every output goes into the manager. One per conversation.
 */
export function contextResponses(
  client: Pick<OpenAI, "responses">,
  manager: ContextManager,
  options: ContextResponsesOptions = {},
): ContextResponses {
  let account: Promise<string | undefined> | undefined;
  const accountOnce = () => (account ??= options.account === undefined ? accountOf(client) : Promise.resolve(options.account));
  /** Stores an output (streamed and assembled, or not) the one way: its items, then the usage. */
  async function store(turn: TurnInFlight, response: Response): Promise<void> {
    // Read and converted before the output is stored: bad usage is ignored, never a failed turn.
    const usage = parseProviderUsage(response.usage, RESPONSE_USAGE_FIELDS);
    // A response that names no model (a stand-in, say) records none: its items then go by type alone.
    const named = typeof response.model === "string" && response.model !== "";
    const recorded = named ? { provenance: openAIProvenance(response.model, await accountOnce()) } : {};
    await turn.add(pinCompactionRecords(fromResponseInputItems(response.output, recorded)));
    await reportProviderUsage(manager, usage, {
      provider: PROVIDER,
      ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
    });
  }

  async function create(
    params: ContextResponseParams | ContextResponseStreamParams,
    requestOptions?: OpenAIRequestOptions,
  ): Promise<Response | ContextStream<ResponseStreamEvent, Response>> {
    const refused = refusedKeys(params);
    if (refused !== undefined) throw refused;
    const { input = [], ...rest } = params;
    const added: Message[] = typeof input === "string" ? [{ role: "user", content: input }] : fromResponseInputItems(input);
    const sentAccount = await accountOnce();
    // A request with no model (a stored prompt names it) has no target: its items go as stored.
    const target =
      options.checkProvenance === false || typeof rest.model !== "string"
        ? undefined
        : { model: rest.model, ...(sentAccount === undefined ? {} : { account: sentAccount }) };
    const open = <T>(send: (input: ResponseInputItem[]) => Promise<T>) =>
      sendWithRecovery({
        manager,
        provider: PROVIDER,
        request: viewRequestOptions(options, rest, requestOptions?.signal),
        isOverflow: isContextLengthError,
        ...(options.recoverOverflow === undefined ? {} : { recoverOverflow: options.recoverOverflow }),
        // Another model's compaction item is no cut point: it is left out, and the view is sent whole.
        send: (view) =>
          send(
            toResponseInputItems(fromLatestCompaction(forResponsesModel(view, target)), {
              ...(target === undefined
                ? {}
                : { targetModel: target.model, ...(target.account === undefined ? {} : { account: target.account }) }),
            }),
          ),
      });
    // Stored only if the whole call succeeds: a rejection (too long, a network error, a bad answer) takes the turn back out.
    return runTurn(manager, async (turn) => {
      await turn.add(added);
      if (rest.stream === true) {
        const streamed = rest;
        // The request's HTTP answer arrives before any event, so an overflow is retried here, before the caller reads.
        const events = await open((items) => client.responses.create({ ...streamed, input: items }, requestOptions));
        return storedStream({
          turn,
          events,
          assembly: responseAssembly(),
          provider: PROVIDER,
          signal: requestOptions?.signal,
          store: (response) => store(turn, response),
        });
      }
      const { stream: _stream, ...unstreamed } = rest;
      const response = await open((items) => client.responses.create({ ...unstreamed, input: items }, requestOptions));
      await store(turn, response);
      return response;
    });
  }

  return { create: create as ContextResponses["create"] };
}
