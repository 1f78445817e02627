// Gemini `contents` (and a system instruction) as ctxkit messages.
import type { ContentPart, Message, ToolCall, ToolMessage } from "@ctxkit/core";
import {
  acceptMessage,
  argumentsFromToolInput,
  readAdapterInput,
  withProvenance,
  type InputList,
  type InputRecord,
  type Provenance,
} from "@ctxkit/core/kit";
import type { Content, ContentUnion } from "@google/genai";
import { functionCallIdFor, SameNameCounter } from "./function-call-ids.js";
import { GEMINI_PART, GEMINI_THOUGHT, GEMINI_THOUGHT_SIGNATURE, imageUrlOfPart } from "./gemini-parts.js";
import { contentOfParts, toolContentOf } from "./function-response.js";

export interface FromGeminiOptions {
  /** The request's `config.systemInstruction`, put first as a system message. */
  systemInstruction?: ContentUnion;
  /**
   * Who produced the model contents (`geminiProvenance(model)` for an answer), recorded as the `metadata.provenance`
   * of each assistant message with thoughts or signatures, so a later request to another model leaves them out.
   */
  provenance?: Provenance;
}

const FIX =
  "Pass the contents as the Google Gen AI SDK types them ({ role: 'user' | 'model', parts: Part[] }), and a system instruction as text; nothing was converted.";
const PART_FIELDS = ["text", "inlineData", "fileData", "functionCall", "functionResponse"] as const;

/**
 * The contents as ctxkit messages for `addMessage`. A `model` content becomes an assistant message: its function
 * calls become `tool_calls` (arguments as JSON text; a call with no id gets a stable one, see
 * `functionCallIdFor`), its thoughts and any part with no ctxkit form are kept whole as parts, and a
 * `thoughtSignature` is kept beside the part it signs. A `user` content's function responses become tool messages
 * (before the rest of its parts, as Gemini orders them), the rest a user message. Images (`inlineData`, and
 * `fileData` with an http URL) become `image_url` parts. Malformed input throws `AdapterInputError` naming the
 * entry and the field, and nothing is returned.
 */
export function fromGeminiContents(contents: readonly Content[], options: FromGeminiOptions = {}): Message[] {
  const input = readAdapterInput("fromGeminiContents", FIX);
  const result: Message[] = [];
  if (options.systemInstruction !== undefined) result.push(fromSystemInstruction(input, options.systemInstruction));
  input.entries(contents, "contents").forEach((entry) => {
    const index = entry.index!;
    const role = entry.has("role") ? entry.oneOf("role", ["user", "model"]) : "user";
    const parts = entry.records("parts");
    const converted = role === "model" ? [fromModelParts(parts)] : fromUserParts(parts);
    const recorded = options.provenance === undefined ? converted : withProvenance(converted, options.provenance);
    result.push(...recorded.map((message) => acceptMessage(input, message, index)));
  });
  return result;
}

function fromSystemInstruction(input: InputList, instruction: ContentUnion): Message {
  const read = input.arguments({ systemInstruction: instruction });
  const value = read.value["systemInstruction"];
  if (typeof value === "string") return { role: "system", content: value };
  const parts = Array.isArray(value) ? read.records("systemInstruction") : read.record("systemInstruction").records("parts");
  const texts = parts.map((part) => {
    if (Object.keys(part.value).join() !== "text") part.fail("a system instruction takes text parts only ({ text })");
    return part.string("text");
  });
  return { role: "system", content: texts.length === 1 ? texts[0]! : texts.map((text) => ({ type: "text", text })) };
}

/** The one data field of a part (text, inlineData, …), or undefined when it has none of them. */
function fieldOf(part: InputRecord): (typeof PART_FIELDS)[number] | undefined {
  const present = PART_FIELDS.filter((field) => part.has(field));
  if (present.length > 1) part.fail(`a part holds one of ${PART_FIELDS.join(", ")}, not ${present.join(" and ")}`);
  return present[0];
}

/** A part that is neither a call nor a response: its ctxkit parts (a signature first, when it carries one). */
function fromContentPart(part: InputRecord): ContentPart[] {
  if (part.value["thought"] === true) return [{ type: GEMINI_THOUGHT, part: part.value }];
  const { thoughtSignature, ...rest } = part.value;
  const signature =
    thoughtSignature === undefined ? [] : [{ type: GEMINI_THOUGHT_SIGNATURE, thoughtSignature: part.string("thoughtSignature") }];
  const keys = Object.keys(rest);
  if (keys.length === 1 && keys[0] === "text") return [...signature, { type: "text", text: part.string("text") }];
  const url = imageUrlOfPart(rest);
  if (url !== undefined) return [...signature, { type: "image_url", image_url: { url } }];
  // Code execution, files, blobs that are no image: kept whole, signature and all.
  return [{ type: GEMINI_PART, part: part.value }];
}

/** A call's or a response's id; an empty one counts as none (`createPartFromFunctionResponse(call.id ?? "", …)`). */
function idOf(record: InputRecord): string | undefined {
  const id = record.optionalString("id");
  return id === "" ? undefined : id;
}

function fromModelParts(parts: readonly InputRecord[]): Message {
  const content: ContentPart[] = [];
  const signatures: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const counter = new SameNameCounter();
  for (const part of parts) {
    const field = fieldOf(part);
    if (field === "functionResponse") part.fail("a functionResponse belongs in a user content", "functionResponse");
    if (field !== "functionCall") {
      content.push(...fromContentPart(part));
      continue;
    }
    const extra = Object.keys(part.value).find((key) => key !== "functionCall" && key !== "thoughtSignature");
    if (extra !== undefined) part.fail("a functionCall part takes only functionCall and thoughtSignature", extra);
    const call = part.record("functionCall");
    const callExtra = Object.keys(call.value).find((key) => key !== "id" && key !== "name" && key !== "args");
    if (callExtra !== undefined) call.fail("a function call takes id, name and args (partial arguments are not kept)", callExtra);
    const name = call.nonEmptyString("name");
    const k = counter.next(name);
    const id = idOf(call) ?? functionCallIdFor(name, k);
    if (call.has("args")) call.record("args");
    calls.push({ id, type: "function", function: { name, arguments: argumentsFromToolInput(call.value["args"]) } });
    if (part.has("thoughtSignature"))
      signatures.push({ type: GEMINI_THOUGHT_SIGNATURE, thoughtSignature: part.string("thoughtSignature"), callId: id });
  }
  const all = [...content, ...signatures];
  if (calls.length === 0) return { role: "assistant", content: all.length === 0 ? "" : contentOfParts(all) };
  return { role: "assistant", content: all.length === 0 ? null : contentOfParts(all), tool_calls: calls };
}

function fromUserParts(parts: readonly InputRecord[]): Message[] {
  const results: ToolMessage[] = [];
  const rest: ContentPart[] = [];
  const counter = new SameNameCounter();
  for (const part of parts) {
    const field = fieldOf(part);
    if (field === "functionCall") part.fail("a functionCall belongs in a model content", "functionCall");
    if (field !== "functionResponse") {
      rest.push(...fromContentPart(part));
      continue;
    }
    const extra = Object.keys(part.value).find((key) => key !== "functionResponse");
    if (extra !== undefined) part.fail("a functionResponse part takes only functionResponse", extra);
    const response = part.record("functionResponse");
    const responseExtra = Object.keys(response.value).find((key) => key !== "id" && key !== "name" && key !== "response");
    if (responseExtra !== undefined)
      response.fail("a function response takes id, name and response (multimodal parts and scheduling are not kept)", responseExtra);
    const name = response.nonEmptyString("name");
    const k = counter.next(name);
    const id = idOf(response) ?? functionCallIdFor(name, k);
    const value = response.has("response") ? response.record("response").value : {};
    results.push({ role: "tool", tool_call_id: id, name, ...toolContentOf(value) });
  }
  return rest.length > 0 || results.length === 0 ? [...results, { role: "user", content: contentOfParts(rest) }] : results;
}
