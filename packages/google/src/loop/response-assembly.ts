// generateContentStream's chunks folded into the response generateContent returns: text pieces joined, calls whole.
import { ContextStreamError } from "@ctxkit/core";
import type { StreamAssembly } from "@ctxkit/core/kit";
import type { Candidate, GenerateContentResponse, Part } from "@google/genai";

const PROVIDER = "Gemini";

const TEXT_KEYS = new Set(["text", "thought", "thoughtSignature"]);
const isTextPiece = (part: Part) => typeof part.text === "string" && Object.keys(part).every((key) => TEXT_KEYS.has(key));

/**
 * Whether `piece` continues `last`: both text of the same kind (a thought or not), and `last` not yet signed,
 * since a signature comes with the last piece of the part it signs.
 */
function continues(last: Part | undefined, piece: Part): last is Part {
  return (
    last !== undefined &&
    isTextPiece(last) &&
    isTextPiece(piece) &&
    last.thoughtSignature === undefined &&
    (last.thought === true) === (piece.thought === true)
  );
}

/**
 * Folds the chunks of `generateContentStream` (the first candidate of each) into the response the same request
 * returns unstreamed: consecutive text pieces of one kind join into one part (its signature, when the last piece
 * brings one, with it), every other part as it came; the candidate's other fields, the usage and the model version
 * as the latest chunk gives them. Whole only once a chunk brought the candidate's `finishReason`: a stream cut
 * before it ended short.
 */
export function responseAssembly(): StreamAssembly<GenerateContentResponse, GenerateContentResponse> {
  const parts: Part[] = [];
  let candidate: Omit<Candidate, "content"> = {};
  let response: Record<string, unknown> = {};
  // The SDK's class (its `text` and `functionCalls` getters), taken from the chunks: @google/genai stays a type-only import.
  let prototype: object = Object.prototype;
  let finished = false;
  return {
    add(chunk) {
      if (typeof chunk !== "object" || chunk === null) throw new ContextStreamError(PROVIDER, "a chunk of the stream is no object");
      prototype = Object.getPrototypeOf(chunk) as object;
      const { candidates, ...rest } = chunk as GenerateContentResponse;
      response = { ...response, ...rest };
      const first = candidates?.find((each) => (each.index ?? 0) === 0);
      if (first === undefined) return;
      const { content, ...fields } = first;
      candidate = { ...candidate, ...fields };
      for (const piece of content?.parts ?? []) {
        const last = parts.at(-1);
        if (continues(last, piece)) {
          last.text = `${last.text}${piece.text}`;
          if (piece.thoughtSignature !== undefined) last.thoughtSignature = piece.thoughtSignature;
        } else parts.push({ ...piece });
      }
      if (first.finishReason !== undefined) finished = true;
    },
    finish() {
      if (!finished) return undefined;
      return Object.assign(Object.create(prototype) as GenerateContentResponse, response, {
        candidates: [{ ...candidate, content: { role: "model", parts } }],
      });
    },
  };
}
