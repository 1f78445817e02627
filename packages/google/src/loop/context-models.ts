// A Gemini client whose every request is the manager's view: the loop driven by ctxkit, streamed or not.
import {
  estimateCounter,
  reportProviderUsage,
  sendWithRecovery,
  type ContextManager,
  type EventHandler,
  type Message,
  type Provider,
} from "@ctxkit/core";
import { runTurn, storedStream, type ContextStream, type TurnInFlight } from "@ctxkit/core/kit";
import type {
  Content,
  ContentUnion,
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
  GoogleGenAI,
  Part,
} from "@google/genai";
import { fromGeminiContents } from "../from-gemini-contents.js";
import { geminiProvenance } from "../gemini-provenance.js";
import { SKIP_THOUGHT_SIGNATURE_VALIDATOR, toGeminiContents, type GeminiRequest, type ToGeminiOptions } from "../to-gemini-contents.js";
import { isContextLengthError } from "./is-context-length-error.js";
import { parseGeminiUsage } from "./gemini-usage.js";
import { responseAssembly } from "./response-assembly.js";

const PROVIDER = "Gemini";

export interface ContextModelsOptions extends Omit<ToGeminiOptions, "targetModel"> {
  /**
   * Each stored answer records its model (`metadata.provenance`), and each request leaves out the thoughts and
   * signatures another model produced, so a session may change `model` at any call. `false` sends every stored
   * part as it is. Default: true.
   */
  checkProvenance?: boolean;
  /** The model's window (`contextWindow`, `maxOutputTokens`), which sets the budget of every view. */
  provider?: Provider;
  /** A fixed budget instead; the manager's `maxTokens` applies when neither is given. */
  tokenBudget?: number;
  /**
   * When the API rejects a request as over the model's input limit, retry it once on the manager's smaller view
   * (`recoverOverflow`); a second rejection throws `ContextOverflowError`. Default: true.
   */
  recoverOverflow?: boolean;
  /** Receives `context:usage_rejected` when the API reports a usage that is no count (the turn is kept, the usage ignored). */
  onEvent?: EventHandler;
}

export interface ContextGenerateContentParameters extends Omit<GenerateContentParameters, "contents"> {
  /** Only the contents new since the last call (the user's turn, function responses): the manager holds the rest. */
  contents?: Content[];
}

export interface ContextModels {
  /**
   * Adds `contents` to the manager, sends its view (with `config.systemInstruction`, not stored, before the view's
   * own instructions; tools and the instruction counted), adds the first candidate's content and reports the usage.
   * A request rejected as too long is retried once on a smaller view. A call that rejects leaves the manager as it
   * was: send the same contents again.
   */
  generateContent(params: ContextGenerateContentParameters): Promise<GenerateContentResponse>;
  /**
   * Resolves once the API accepted the view (a too-long one already retried on a smaller view) to the chunks as they
   * arrive. The answer is stored, as a non-streamed one, after the chunk with the `finishReason`; a stream that
   * fails midway, is aborted (`config.abortSignal`) or left early (`break`) leaves the manager as it was before the call.
   */
  generateContentStream(params: ContextGenerateContentParameters): Promise<ContextStream<GenerateContentResponse, GenerateContentResponse>>;
}

/**
 * `contextModels(ai, manager).generateContent({ model, contents: [newContent], config })`: every request is the
 * manager's view, every answer goes into the manager. One per conversation.
 */
export function contextModels(ai: Pick<GoogleGenAI, "models">, manager: ContextManager, options: ContextModelsOptions = {}): ContextModels {
  const { provider, tokenBudget, recoverOverflow, onEvent, checkProvenance, ...conversion } = options;

  /** Stores an answer (streamed and assembled, or not) the one way: its first candidate's content, then the usage. */
  async function store(turn: TurnInFlight, model: string, answer: GenerateContentResponse): Promise<void> {
    // Read and checked before the answer is stored: bad usage is ignored, never a failed turn.
    const usage = parseGeminiUsage(answer.usageMetadata);
    const parts = answer.candidates?.[0]?.content?.parts;
    // A blocked prompt or an empty answer has no content: only the caller's contents stay.
    if (parts !== undefined && parts.length > 0)
      await turn.add(fromGeminiContents([{ role: "model", parts }], { provenance: geminiProvenance(model) }));
    await reportProviderUsage(manager, usage, { provider: PROVIDER, ...(onEvent === undefined ? {} : { onEvent }) });
  }

  async function call<Answer, Result>(
    params: ContextGenerateContentParameters,
    send: (request: GenerateContentParameters) => Promise<Answer>,
    finish: (turn: TurnInFlight, answer: Answer) => Promise<Result>,
  ): Promise<Result> {
    const { contents = [], config = {}, ...rest } = params;
    // Converted whole before anything is stored, so a bad content leaves the manager as it was.
    const added = fromGeminiContents(contents);
    const systemText = instructionText(config.systemInstruction);
    const reserveTokens = systemText === "" ? 0 : estimateCounter().count(systemText);
    const targetModel = checkProvenance === false ? undefined : rest.model;
    return runTurn(manager, async (turn) => {
      await turn.add(added);
      const answer = await sendWithRecovery({
        manager,
        provider: PROVIDER,
        request: {
          ...(provider === undefined ? {} : { provider }),
          ...(tokenBudget === undefined ? {} : { tokenBudget }),
          ...(config.tools === undefined ? {} : { tools: config.tools }),
          ...(config.abortSignal === undefined ? {} : { signal: config.abortSignal }),
          ...(reserveTokens === 0 ? {} : { reserveTokens }),
          ...(typeof rest.model === "string" && rest.model !== "" ? { model: rest.model } : {}),
        },
        isOverflow: isContextLengthError,
        ...(recoverOverflow === undefined ? {} : { recoverOverflow }),
        send: (view: Message[]) => {
          const request = toGeminiContents(view, {
            unsignedCallSignature: SKIP_THOUGHT_SIGNATURE_VALIDATOR,
            ...conversion,
            ...(targetModel === undefined ? {} : { targetModel }),
          });
          return send({ ...rest, contents: request.contents, config: withSystemInstruction(config, request) });
        },
      });
      return finish(turn, answer);
    });
  }

  return {
    generateContent: (params) =>
      call(
        params,
        (request) => ai.models.generateContent(request),
        async (turn, answer) => {
          await store(turn, params.model, answer);
          return answer;
        },
      ),
    generateContentStream: (params) =>
      call(
        params,
        // The request's HTTP answer arrives before any chunk, so an overflow is retried here, before the caller reads.
        async (request) => ai.models.generateContentStream(request),
        async (turn, chunks) =>
          storedStream({
            turn,
            events: chunks,
            assembly: responseAssembly(),
            provider: PROVIDER,
            signal: params.config?.abortSignal,
            store: (answer) => store(turn, params.model, answer),
          }),
      ),
  };
}

/** The caller's instruction (not stored) goes before the view's own system messages. */
function withSystemInstruction(config: GenerateContentConfig, request: GeminiRequest): GenerateContentConfig {
  const given = instructionParts(config.systemInstruction);
  const parts = [...given, ...(request.systemInstruction?.parts ?? [])];
  const { systemInstruction: _given, ...rest } = config;
  return parts.length === 0 ? rest : { ...rest, systemInstruction: { parts } };
}

function instructionParts(instruction: ContentUnion | undefined): Part[] {
  if (instruction === undefined) return [];
  if (typeof instruction === "string") return instruction === "" ? [] : [{ text: instruction }];
  if (Array.isArray(instruction)) return instruction.map((part) => (typeof part === "string" ? { text: part } : part));
  if ("parts" in instruction || "role" in instruction) return (instruction as Content).parts ?? [];
  return [instruction as Part];
}

function instructionText(instruction: ContentUnion | undefined): string {
  return instructionParts(instruction)
    .map((part) => part.text ?? "")
    .join("\n");
}
