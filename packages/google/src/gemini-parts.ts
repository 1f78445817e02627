// Gemini parts that ctxkit has no own form for, kept whole in a message's content, and the images both ways.
import type { ContentPart } from "@ctxkit/core";
import type { Part } from "@google/genai";

/** A `thought: true` part (a summary of the model's reasoning), kept whole with its signature. */
export const GEMINI_THOUGHT = "gemini_thought";
/**
 * The `thoughtSignature` of a part that is no thought (a text, an image, a function call): it stands just before
 * that part's ctxkit form in `content`, or, with `callId`, names the function call it belongs to.
 */
export const GEMINI_THOUGHT_SIGNATURE = "gemini_thought_signature";
/** Any other part (code execution, a file, a blob that is no image), kept whole. */
export const GEMINI_PART = "gemini_part";

export interface GeminiThoughtPart {
  readonly type: typeof GEMINI_THOUGHT;
  readonly part: Part;
}
export interface GeminiThoughtSignaturePart {
  readonly type: typeof GEMINI_THOUGHT_SIGNATURE;
  readonly thoughtSignature: string;
  readonly callId?: string;
}
export interface GeminiKeptPart {
  readonly type: typeof GEMINI_PART;
  readonly part: Part;
}

/** Gemini's reasoning parts: sent back to Gemini byte-identical, left out for every other provider. */
export const isGeminiReasoning = (part: ContentPart): boolean => part.type === GEMINI_THOUGHT || part.type === GEMINI_THOUGHT_SIGNATURE;

const IMAGE_TYPES: Readonly<Record<string, string>> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  heic: "image/heic",
  heif: "image/heif",
};

/** The image type a URL's extension names; `image/jpeg` when it names none, as a camera's URL often does. */
export function imageTypeOfUrl(url: string): string {
  const path = url.split(/[?#]/)[0] ?? "";
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension === undefined ? undefined : IMAGE_TYPES[extension]) ?? "image/jpeg";
}

const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,(.*)$/is;

/** An image URL as a Gemini part: a data URL as `inlineData`, an http(s) URL as `fileData`; anything else undefined. */
export function toImagePart(url: string): Part | undefined {
  const data = DATA_URL.exec(url);
  if (data !== null) return { inlineData: { mimeType: data[1]!, data: data[2]! } };
  if (/^https?:\/\//i.test(url)) return { fileData: { mimeType: imageTypeOfUrl(url), fileUri: url } };
  return undefined;
}

/**
 * The image URL a Gemini part stands for, when it is exactly what `toImagePart` makes of one (so it goes back the
 * same); undefined for any other part, which is then kept whole.
 */
export function imageUrlOfPart(part: Readonly<Record<string, unknown>>): string | undefined {
  const keys = Object.keys(part);
  if (keys.length !== 1) return undefined;
  const inline = part["inlineData"] as Record<string, unknown> | undefined;
  if (isExactly(inline, ["mimeType", "data"]) && typeof inline.mimeType === "string" && typeof inline.data === "string") {
    const url = `data:${inline.mimeType};base64,${inline.data}`;
    return DATA_URL.test(url) && DATA_URL.exec(url)![1] === inline.mimeType ? url : undefined;
  }
  const file = part["fileData"] as Record<string, unknown> | undefined;
  if (isExactly(file, ["mimeType", "fileUri"]) && typeof file.fileUri === "string" && /^https?:\/\//i.test(file.fileUri))
    return file.mimeType === imageTypeOfUrl(file.fileUri) ? file.fileUri : undefined;
  return undefined;
}

function isExactly(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => own.includes(key));
}
