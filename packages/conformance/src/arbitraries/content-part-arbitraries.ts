// Content parts that are not text, as sessions send them: images, audio, files and typed parts of a provider's own.
import type { ContentPart, Message } from "@ctxkit/core";
import fc from "fast-check";
import { type HistoryArbitraryOptions, historyArbitrary } from "./history-arbitrary.js";

// Short, valid-looking payloads: a part's bytes are counted as its JSON, so a long one would only slow the runs.
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
const WAV_BASE64 = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";
const PDF_BASE64 = "JVBERi0xLjQKJcOkw7zDtsOfCjIgMCBvYmoKPDwvTGVuZ3RoIDMgMCBSPj4Kc3RyZWFtCg==";

/** An `image_url` part: a URL (sometimes signed, with a secret in its query), a data URL, with or without `detail`. */
export function imagePartArbitrary(): fc.Arbitrary<ContentPart> {
  const url = fc.oneof(
    fc.constantFrom("https://example.com/screenshot.png", "https://cdn.example.com/diagrams/flow%20chart.jpg"),
    fc
      .nat({ max: 0xffff })
      .map((value) => `https://bucket.example.com/shot-${value}.png?X-Amz-Signature=${value.toString(16)}f00d&X-Amz-Expires=300`),
    fc.constant(`data:image/png;base64,${PNG_BASE64}`),
  );
  return fc
    .tuple(url, fc.constantFrom(undefined, "auto" as const, "low" as const, "high" as const))
    .map(([url, detail]): ContentPart => ({ type: "image_url", image_url: detail === undefined ? { url } : { url, detail } }));
}

/**
 * A part that is not text: mostly an image, else audio, a file (inline or by id), or a typed part of a
 * provider's own that ctxkit does not know and must keep as it is. None is a tool call or a reasoning part.
 */
export function nonTextPartArbitrary(): fc.Arbitrary<ContentPart> {
  const audio = fc
    .constantFrom("wav" as const, "mp3" as const)
    .map((format): ContentPart => ({ type: "input_audio", input_audio: { data: WAV_BASE64, format } }));
  const file = fc.oneof(
    fc.nat({ max: 0xffff }).map((value): ContentPart => ({ type: "file", file: { file_id: `file-${value.toString(36)}` } })),
    fc.constant<ContentPart>({ type: "file", file: { file_data: `data:application/pdf;base64,${PDF_BASE64}`, filename: "report.pdf" } }),
  );
  const unknown = fc.constantFrom<ContentPart>(
    { type: "image", source: { type: "url", url: "https://example.com/photo.jpg" } },
    { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF_BASE64 }, title: "spec" },
    { type: "x-provider-widget", payload: { rows: [1, 2, 3], note: "kept byte for byte" } },
  );
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: imagePartArbitrary(), weight: 4 },
    { arbitrary: audio, weight: 1 },
    { arbitrary: file, weight: 1 },
    { arbitrary: unknown, weight: 2 },
  );
}

interface Addition {
  readonly parts: ContentPart[];
  /** Before the message's own content (an image, then the question about it) or after it. */
  readonly first: boolean;
}

const additionArbitrary: fc.Arbitrary<Addition> = fc.record({
  parts: fc.array(nonTextPartArbitrary(), { minLength: 1, maxLength: 3 }),
  first: fc.boolean(),
});

function asParts(content: Message["content"]): ContentPart[] {
  if (content === null) return [];
  return typeof content === "string" ? [{ type: "text", text: content }] : content;
}

/**
 * A history (see `historyArbitrary`) whose user messages and tool results carry non-text parts about
 * half the time: images, audio, files and unknown typed parts, before or after their text. A strategy
 * that assumes every part has text, or every result is a string, meets them here.
 */
export function historyWithNonTextPartsArbitrary(options: HistoryArbitraryOptions = {}): fc.Arbitrary<Message[]> {
  // Additions are drawn apart from the history and laid on its user and tool messages in order, so both shrink
  // on their own: a counterexample loses the parts that do not matter to it.
  const additions = fc.array(fc.option(additionArbitrary, { nil: undefined, freq: 2 }), { maxLength: 2 * (options.maxSegments ?? 10) });
  return fc.tuple(historyArbitrary(options), additions).map(([history, added]) => {
    let next = 0;
    return history.map((message): Message => {
      if (message.role !== "user" && message.role !== "tool") return message;
      const addition = added[next++];
      if (addition === undefined) return message;
      const own = asParts(message.content);
      return { ...message, content: addition.first ? [...addition.parts, ...own] : [...own, ...addition.parts] };
    });
  });
}
