// On-demand compaction through `responses.compact`: the opaque item it returns becomes a pinned record of the history.
import { ContextError, type ContextManager, type Message, type RequestOptions } from "@ctxkit/core";
import type OpenAI from "openai";
import { fromLatestCompaction, isCompactionPart, pinCompactionRecords } from "./compaction-records.js";
import { toResponseInputItems } from "./to-response-input-items.js";
import { accountOf, forResponsesModel, openAIProvenance } from "./openai-provenance.js";

/** `responses.compact` answered without a compaction item: nothing was added to the manager. */
export class ResponsesCompactionError extends ContextError {
  readonly outputTypes: readonly string[];

  constructor(outputTypes: readonly string[]) {
    super(
      "OPENAI_COMPACTION",
      `responses.compact returned no compaction item (output: ${outputTypes.join(", ") || "empty"}); nothing was added. Check the model supports compaction.`,
    );
    this.outputTypes = outputTypes;
  }
}

export interface CompactResponsesOptions {
  model: string;
  /** Instructions for the compaction pass. */
  instructions?: string;
  /** The options of the view that is compacted (its budget, signal). */
  request?: RequestOptions;
  /** The account a provenance names. Default: a SHA-256 fingerprint of the client's API key (never the key). */
  account?: string;
}

/**
 * Sends the manager's view to `responses.compact` and adds the returned compaction item as a pinned record:
 * `contextResponses` then sends the conversation from it on. The item is encrypted, so it cannot be a ctxkit
 * text summary (a `Summarizer` returns text): this is OpenAI's on-demand compaction in its own form.
 */
export async function compactResponses(
  client: Pick<OpenAI, "responses">,
  manager: ContextManager,
  options: CompactResponsesOptions,
): Promise<Message> {
  const account = options.account ?? (await accountOf(client));
  const target = { model: options.model, ...(account === undefined ? {} : { account }) };
  const view = fromLatestCompaction(forResponsesModel(await manager.getMessagesForRequest(options.request), target));
  const compacted = await client.responses.compact(
    {
      model: options.model,
      input: toResponseInputItems(view, { targetModel: options.model, ...(account === undefined ? {} : { account }) }),
      ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    },
    options.request?.signal === undefined ? undefined : { signal: options.request.signal },
  );
  const item = compacted.output.find((candidate) => candidate.type === "compaction");
  if (item === undefined || !isCompactionPart(item as never))
    throw new ResponsesCompactionError(compacted.output.map((candidate) => candidate.type));
  // The compaction response names no model: the item is bound to the one it was asked of.
  const provenance = openAIProvenance(options.model, account);
  const [record] = pinCompactionRecords([{ role: "assistant", content: [{ ...item }], metadata: { provenance } }]);
  await manager.addMessage(record!);
  return record!;
}
