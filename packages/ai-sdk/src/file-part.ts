// AI SDK file parts as ctxkit's (OpenAI's) file part: the data as `file.file_data`, a data URL when inline.
import type { ContentPart } from "@ctxkit/core";
import type { FilePart } from "ai";
import { readProviderOptions } from "./ai-sdk-hints.js";
import { isUrlString, splitDataUrl, toDataString } from "./data-content.js";
import { stringField } from "./part-fields.js";

/**
 * Inline data becomes `data:<mediaType>;base64,...`, as OpenAI takes a file; a URL (which OpenAI's shape
 * cannot hold otherwise) stays a URL, with its `mediaType` beside it.
 */
export function fromFilePart(part: FilePart): ContentPart {
  const data = toDataString(part.data);
  const inline = splitDataUrl(data);
  const isLink = isUrlString(data) && inline === undefined;
  const fileData = isLink || inline !== undefined ? data : `data:${part.mediaType};base64,${data}`;
  const keepsMediaType = isLink || (inline !== undefined && inline.mediaType !== part.mediaType);
  return {
    type: "file",
    file: { file_data: fileData, ...(part.filename === undefined ? {} : { filename: part.filename }) },
    ...(keepsMediaType ? { mediaType: part.mediaType } : {}),
    ...(part.providerOptions === undefined ? {} : { providerOptions: part.providerOptions }),
  };
}

/** The AI SDK file part of a ctxkit file part, or a reason it has none (an OpenAI `file_id`). */
export function toFilePart(part: ContentPart): FilePart | string {
  const file = (part as unknown as { file?: { file_data?: unknown; filename?: unknown } }).file;
  if (typeof file?.file_data !== "string") return "a file part without file_data (an OpenAI file_id, say) has no AI SDK equivalent";
  const inline = splitDataUrl(file.file_data);
  const mediaType = stringField(part, "mediaType") ?? inline?.mediaType ?? "application/octet-stream";
  const providerOptions = readProviderOptions(part);
  return {
    type: "file",
    data: inline?.data ?? file.file_data,
    mediaType,
    ...(typeof file.filename === "string" ? { filename: file.filename } : {}),
    ...(providerOptions === undefined ? {} : { providerOptions }),
  };
}
