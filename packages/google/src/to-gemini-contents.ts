// A ctxkit view as a Gemini request: the system instruction kept apart, each function response right after its call.
import { ContextValidationError, toProviderMessages, type ContentPart, type Message, type ToolCall } from "@ctxkit/core";
import { stripReasoning, textOfPart, toolInputFromArguments, unsupportedPartError } from "@ctxkit/core/kit";
import type { Content, Part } from "@google/genai";
import { isMintedFunctionCallId, SameNameCounter } from "./function-call-ids.js";
import { toFunctionResponse } from "./function-response.js";
import { forGeminiModel } from "./gemini-provenance.js";
import { GEMINI_PART, GEMINI_THOUGHT, GEMINI_THOUGHT_SIGNATURE, isGeminiReasoning, toImagePart } from "./gemini-parts.js";

export interface GeminiRequest {
  /** The system and developer messages' texts, in order, as `config.systemInstruction`; absent when there are none. */
  systemInstruction?: Content;
  contents: Content[];
}

export interface ToGeminiOptions {
  /**
   * The model the request goes to. Thoughts and thought signatures whose recorded provenance (`metadata.provenance`)
   * names another model are left out; parts with no provenance go as they are. Without it, every part goes as stored.
   */
  targetModel?: string;
  /**
   * Gemini refuses a conversation whose first function call turn does not follow a user turn, which a view can
   * open with once the messages before an assistant turn were compacted away: a user content with this text is
   * put first then.
   */
  openingUserText?: string;
  /**
   * Gemini 3 refuses a request whose current turn (the steps since the last user content that is not only function
   * responses) has a step whose first function call carries no signature: another model's, whose signature the
   * target cannot verify and `targetModel` left out, or one never signed. With this, such a call is sent with it
   * (`SKIP_THOUGHT_SIGNATURE_VALIDATOR`, as `contextModels` does). Without it, calls go as stored.
   */
  unsignedCallSignature?: string;
}

export const DEFAULT_OPENING_USER_TEXT = "(earlier messages left out)";

/** The signature Gemini documents for a function call it did not sign (another model's, one written by hand). */
export const SKIP_THOUGHT_SIGNATURE_VALIDATOR = "skip_thought_signature_validator";

/**
 * The view as `{ systemInstruction, contents }` for `ai.models.generateContent`. System and developer messages go
 * to `systemInstruction`; an assistant becomes a `model` content (its parts, then a `functionCall` for each tool
 * call, arguments parsed into `args`); the tool messages that answer it become `functionResponse` parts of the
 * `user` content right after it (`{ output }`, or `{ error }` for `is_error`); consecutive messages of one role
 * merge, so roles alternate. Image URLs become `inlineData` (data URLs) or `fileData` (http URLs). Gemini's own
 * thoughts and signatures go back byte-identical; other providers' reasoning is left out. A part Gemini cannot
 * take throws `ContextValidationError`.
 */
export function toGeminiContents(view: readonly Message[], options: ToGeminiOptions = {}): GeminiRequest {
  const system: Part[] = [];
  const contents: { role: "user" | "model"; parts: Part[] }[] = [];
  // The latest assistant's calls, so a tool message's response carries the name Gemini asks for.
  let calls: readonly ToolCall[] = [];
  let responses = new SameNameCounter();

  stripReasoning(toProviderMessages(forGeminiModel(view, options.targetModel)), { keep: isGeminiReasoning }).forEach((message, index) => {
    if (message.role === "system" || message.role === "developer") {
      system.push(...toSystemParts(message.content, index));
      return;
    }
    let parts: Part[];
    if (message.role === "assistant") {
      calls = message.tool_calls ?? [];
      responses = new SameNameCounter();
      parts = toModelParts(message.content, calls, index);
    } else if (message.role === "tool") {
      const name = message.name ?? calls.find((call) => call.id === message.tool_call_id)?.function.name;
      if (name === undefined)
        throw new ContextValidationError(
          [{ path: "tool_call_id", message: `no call "${message.tool_call_id}" before it names the function Gemini's response needs` }],
          { index },
        );
      if (Array.isArray(message.content))
        message.content.forEach((part, position) => {
          if (part.type !== "text" && part.type !== "refusal") throw refused(index, position, part, "a function response (text only)");
        });
      const k = responses.next(name);
      const id = isMintedFunctionCallId(message.tool_call_id, name, k) ? {} : { id: message.tool_call_id };
      parts = [{ functionResponse: { ...id, name, response: toFunctionResponse(message) } }];
    } else parts = toParts(message.content, index, "a user message");
    // A message with no part (an empty text) has nothing Gemini accepts.
    if (parts.length === 0) return;
    const role = message.role === "assistant" ? "model" : "user";
    const last = contents.at(-1);
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  });

  if (contents.length === 0)
    throw new ContextValidationError([
      {
        path: "",
        message:
          "the view has no user or assistant content Gemini can take (empty or whitespace-only messages are left out); add a user message with content before sending",
      },
    ]);
  if (contents[0]?.role === "model")
    contents.unshift({ role: "user", parts: [{ text: options.openingUserText ?? DEFAULT_OPENING_USER_TEXT }] });
  if (options.unsignedCallSignature !== undefined) signCurrentTurn(contents, options.unsignedCallSignature);
  return { ...(system.length > 0 ? { systemInstruction: { parts: system } } : {}), contents };
}

/** Gives the first function call of each step of the current turn that has no signature `signature`. */
function signCurrentTurn(contents: readonly { role: string; parts: Part[] }[], signature: string): void {
  const start = contents.findLastIndex(
    (content) => content.role === "user" && content.parts.some((part) => part.functionResponse === undefined),
  );
  for (const content of contents.slice(start + 1)) {
    if (content.role !== "model") continue;
    const first = content.parts.findIndex((part) => part.functionCall !== undefined);
    const call = content.parts[first];
    if (call !== undefined && call.thoughtSignature === undefined) content.parts[first] = { ...call, thoughtSignature: signature };
  }
}

// Gemini refuses a text part with no visible character: such text is no part at all (unless it carries a signature).
const isBlank = (text: string) => text.trim() === "";

function toSystemParts(content: string | readonly ContentPart[], index: number): Part[] {
  if (typeof content === "string") return isBlank(content) ? [] : [{ text: content }];
  return content.flatMap((part, position): Part[] => {
    if (part.type === "text" && typeof part.text === "string") return isBlank(part.text) ? [] : [{ text: part.text }];
    throw refused(index, position, part, "a system instruction (text only)");
  });
}

function toModelParts(content: string | readonly ContentPart[] | null, calls: readonly ToolCall[], index: number): Part[] {
  const parts = content === null ? [] : toParts(content, index, "an assistant message");
  const signatures = new Map<string, string>();
  if (Array.isArray(content))
    for (const part of content)
      if (part.type === GEMINI_THOUGHT_SIGNATURE && typeof part["callId"] === "string")
        signatures.set(part["callId"], String(part["thoughtSignature"]));
  const counter = new SameNameCounter();
  return [
    ...parts,
    ...calls.map((call): Part => {
      const { name } = call.function;
      const id = isMintedFunctionCallId(call.id, name, counter.next(name)) ? {} : { id: call.id };
      const signature = signatures.get(call.id);
      const functionCall = { ...id, name, args: toolInputFromArguments(call.function.arguments) };
      return signature === undefined ? { functionCall } : { functionCall, thoughtSignature: signature };
    }),
  ];
}

function toParts(content: string | readonly ContentPart[], index: number, where: string): Part[] {
  if (typeof content === "string") return isBlank(content) ? [] : [{ text: content }];
  const parts: Part[] = [];
  // A signature stands just before the part it signs.
  let signature: string | undefined;
  const push = (part: Part) => {
    parts.push(signature === undefined ? part : { ...part, thoughtSignature: signature });
    signature = undefined;
  };
  content.forEach((part, position) => {
    if (part.type === GEMINI_THOUGHT_SIGNATURE) {
      if (typeof part["callId"] !== "string") signature = String(part["thoughtSignature"]);
      return;
    }
    if (part.type === GEMINI_THOUGHT || part.type === GEMINI_PART) {
      parts.push(part["part"] as Part);
      return;
    }
    if ((part.type === "text" && typeof part.text === "string") || (part.type === "refusal" && typeof part.refusal === "string")) {
      const text = textOfPart(part);
      if (!isBlank(text) || signature !== undefined) push({ text });
      return;
    }
    if (part.type === "image_url" && typeof (part.image_url as { url?: unknown } | undefined)?.url === "string") {
      const image = toImagePart((part.image_url as { url: string }).url);
      if (image !== undefined) {
        push(image);
        return;
      }
    }
    throw refused(index, position, part, where);
  });
  // A signature left with no part after it signed an empty text.
  if (signature !== undefined) parts.push({ text: "", thoughtSignature: signature });
  return parts;
}

function refused(index: number, position: number, part: ContentPart, where: string) {
  return unsupportedPartError({ provider: "Gemini", index, position, partType: part.type, where });
}
