// A Responses client whose every request is the manager's view: the loop driven by ctxkit, compaction items kept.
import { ContextRequestError, reportProviderUsage, sendWithRecovery, type ContextManager, type Message } from "@ctxkit/core";
import { parseProviderUsage, runTurn } from "@ctxkit/core/kit";
import type OpenAI from "openai";
import type { Response, ResponseCreateParamsNonStreaming, ResponseInputItem } from "openai/resources/responses/responses";
import { fromResponseInputItems } from "../responses/from-response-input-items.js";
import { fromLatestCompaction, pinCompactionRecords } from "../responses/compaction-records.js";
import { toResponseInputItems } from "../responses/to-response-input-items.js";
import { isContextLengthError } from "./is-context-length-error.js";
import type { ContextLoopOptions } from "./loop-options.js";
import { RESPONSE_USAGE_FIELDS } from "./openai-usage.js";

const PROVIDER = "OpenAI Responses";

type OpenAIRequestOptions = Parameters<OpenAI["responses"]["create"]>[1];

export interface ContextResponseParams
  extends Omit<ResponseCreateParamsNonStreaming, "input" | "stream" | "previous_response_id" | "conversation"> {
  /** Only what is new since the last call (the user's turn, `function_call_output`s): the manager holds the rest. */
  input?: string | ResponseInputItem[];
  /** Streaming is not supported here: use the conversions with `client.responses.stream`. */
  stream?: false | null;
}

export interface ContextResponses {
  /**
   * Adds `input` to the manager, sends its view from the latest compaction item on (tools counted), adds the
   * output (a compaction item as a pinned record of its own) and reports the usage. A request rejected as
   * too long is retried once on a smaller view. A call that rejects leaves the manager as it was: send the
   * same input again.
   */
  create(params: ContextResponseParams, options?: OpenAIRequestOptions): Promise<Response>;
}

/** Refuses what would make the server, not the manager, hold the conversation, or what this driver cannot do. */
function refusedKeys(params: ContextResponseParams): ContextRequestError | undefined {
  const given = params as Record<string, unknown>;
  const issues = [
    ...(given["stream"] === true
      ? [{ path: "stream", message: "contextResponses does not stream; stream with client.responses.stream and the conversions" }]
      : []),
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
  options: ContextLoopOptions = {},
): ContextResponses {
  return {
    async create(params, requestOptions) {
      const refused = refusedKeys(params);
      if (refused !== undefined) throw refused;
      const { input = [], ...rest } = params;
      const added: Message[] = typeof input === "string" ? [{ role: "user", content: input }] : fromResponseInputItems(input);
      // Stored only if the whole call succeeds: a rejection (too long, a network error, a bad answer) takes the turn back out.
      return runTurn(manager, async (turn) => {
        await turn.add(added);
        const response = await sendWithRecovery({
          manager,
          provider: PROVIDER,
          request: {
            ...(options.provider === undefined ? {} : { provider: options.provider }),
            ...(options.tokenBudget === undefined ? {} : { tokenBudget: options.tokenBudget }),
            ...(rest.tools === undefined ? {} : { tools: rest.tools }),
            ...(requestOptions?.signal == null ? {} : { signal: requestOptions.signal }),
          },
          isOverflow: isContextLengthError,
          ...(options.recoverOverflow === undefined ? {} : { recoverOverflow: options.recoverOverflow }),
          send: (view) => client.responses.create({ ...rest, input: toResponseInputItems(fromLatestCompaction(view)) }, requestOptions),
        });
        // Read and converted before the output is stored: bad usage is ignored, never a failed turn.
        const usage = parseProviderUsage(response.usage, RESPONSE_USAGE_FIELDS);
        await turn.add(pinCompactionRecords(fromResponseInputItems(response.output)));
        await reportProviderUsage(manager, usage, {
          provider: PROVIDER,
          ...(options.onEvent === undefined ? {} : { onEvent: options.onEvent }),
        });
        return response;
      });
    },
  };
}
