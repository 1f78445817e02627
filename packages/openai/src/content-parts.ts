// Which of a message's content parts a provider role takes, checked at run time, so conversions need no casts.
import type { ContentPart, FilePart, ImageUrlPart, InputAudioPart, RefusalPart, TextPart } from "@ctxkit/core";
import { isRecord } from "@ctxkit/core/kit";

export function isTextPart(part: ContentPart): part is TextPart {
  return part.type === "text" && typeof part.text === "string";
}

export function isImageUrlPart(part: ContentPart): part is ImageUrlPart {
  return part.type === "image_url" && isRecord(part.image_url) && typeof part.image_url.url === "string";
}

export function isInputAudioPart(part: ContentPart): part is InputAudioPart {
  return (
    part.type === "input_audio" &&
    isRecord(part.input_audio) &&
    typeof part.input_audio.data === "string" &&
    (part.input_audio.format === "wav" || part.input_audio.format === "mp3")
  );
}

export function isFilePart(part: ContentPart): part is FilePart {
  return part.type === "file" && isRecord(part.file);
}

export function isRefusalPart(part: ContentPart): part is RefusalPart {
  return part.type === "refusal" && typeof part.refusal === "string";
}
