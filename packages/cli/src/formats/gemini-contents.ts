// Gemini CLI API history: a JSON array of Gemini `contents` (role user|model, parts), or an object holding one, read by
// @ctxkit/google and mapped as the canonical transcripts were made.
import type { ContentPart, Message } from "@ctxkit/core";
import { textOfPart } from "@ctxkit/core/kit";
import { fromGeminiContents, GEMINI_PART, GEMINI_THOUGHT, GEMINI_THOUGHT_SIGNATURE } from "@ctxkit/google";
import { acceptRecord, isObject, recordError } from "./accept-record.js";
import { convertWithAdapter } from "./adapter-document.js";
import { entryLines, readJsonDocument } from "./json-records.js";
import { dumpsLikePython } from "./python-json.js";
import { type SessionReader, SkipCounter } from "./session-reader.js";

type GeminiContents = Parameters<typeof fromGeminiContents>[0];

function contentsOf(document: unknown): { entries: unknown[]; path: string } | undefined {
  if (Array.isArray(document)) return { entries: document, path: "" };
  if (isObject(document) && Array.isArray(document["contents"])) return { entries: document["contents"], path: "contents" };
  return undefined;
}

const isGeminiTurn = (entry: unknown): boolean =>
  isObject(entry) && (entry["role"] === "user" || entry["role"] === "model") && Array.isArray(entry["parts"]);

/** A message's text, its thoughts, signatures and parts with no transcript form left out and counted. */
function transcriptText(content: Message["content"], skipped: SkipCounter): string | undefined {
  if (content === null) return undefined;
  if (typeof content === "string") return content;
  let text: string | undefined;
  for (const part of content) {
    if (part.type === "text") text = (text ?? "") + textOfPart(part);
    else skip(part, skipped);
  }
  return text;
}

function skip(part: ContentPart, skipped: SkipCounter): void {
  if (part.type === GEMINI_THOUGHT_SIGNATURE) {
    skipped.add("thoughtSignature field");
    return;
  }
  const gemini = part.type === GEMINI_THOUGHT || part.type === GEMINI_PART ? (part["part"] as Record<string, unknown>) : undefined;
  if (gemini !== undefined && "thoughtSignature" in gemini) skipped.add("thoughtSignature field");
  skipped.add(part.type === GEMINI_THOUGHT ? "thought part" : `${partKind(part, gemini)} part`);
}

/** What the Gemini part was called, as the counts name it: its fields (`executableCode`), or the image's. */
function partKind(part: ContentPart, gemini: Record<string, unknown> | undefined): string {
  if (gemini !== undefined)
    return Object.keys(gemini)
      .filter((key) => key !== "thoughtSignature")
      .join("+");
  if (part.type !== "image_url") return part.type;
  const url = (part["image_url"] as { url?: unknown } | undefined)?.url;
  return typeof url === "string" && url.startsWith("data:") ? "inlineData" : "fileData";
}

/** Tool-call arguments and structured responses as the transcripts write them (Python's json.dumps). */
const asPython = (json: string) => dumpsLikePython(JSON.parse(json));

/** The message as the transcripts hold it; a user turn with no text (only function responses and images) has none. */
function toTranscript(message: Message, skipped: SkipCounter): Message[] {
  switch (message.role) {
    case "assistant": {
      const text = transcriptText(message.content, skipped);
      // A turn of thoughts alone was still a model call: it is kept, with empty content.
      if (message.tool_calls === undefined) return [{ role: "assistant", content: text ?? "" }];
      const calls = message.tool_calls.map((call) => ({
        ...call,
        function: { ...call.function, arguments: asPython(call.function.arguments) },
      }));
      return [{ role: "assistant", content: text ?? null, tool_calls: calls }];
    }
    case "tool": {
      // A response other than { output } or { error } arrives as its compact JSON.
      const content = typeof message.content === "string" ? message.content : asPython(textOfPart(message.content[0]!));
      if (message.is_error === true) skipped.add("error key");
      return [{ role: "tool", tool_call_id: message.tool_call_id, ...(message.name === undefined ? {} : { name: message.name }), content }];
    }
    default: {
      const text = transcriptText(message.content, skipped);
      return text === undefined ? [] : [{ ...message, content: text } as Message];
    }
  }
}

export const geminiContents: SessionReader = {
  name: "gemini",
  description: "a Gemini CLI API history: the contents array ({ role: user|model, parts }) (JSON)",
  detect: ({ document }) => {
    const found = contentsOf(document);
    return found !== undefined && found.entries.length > 0 && found.entries.every(isGeminiTurn);
  },
  read(source) {
    const found = contentsOf(readJsonDocument(source));
    if (found === undefined) throw recordError(source.file, 1, "expected a JSON array of contents, or an object with a contents array");
    let lines: Map<string, number> | undefined;
    const lineOf = (index: number): number => {
      lines ??= entryLines(source.text);
      return lines.get(found.path === "" ? String(index) : `${found.path}.${index}`) ?? 0;
    };
    found.entries.forEach((entry, index) => {
      if (!isGeminiTurn(entry))
        throw recordError(source.file, lineOf(index), `content ${index} is not { role: "user" | "model", parts: [...] }`);
    });
    // Read whole first, so a content the adapter refuses is named at its line.
    const entries = found.entries as GeminiContents;
    convertWithAdapter(source, found.path, () => fromGeminiContents(entries));
    const skipped = new SkipCounter();
    // Then each content on its own (the ids of calls without one depend on their own turn alone), so each message is
    // checked at its content's line.
    const messages = entries.flatMap((entry, index) =>
      fromGeminiContents([entry])
        .flatMap((message) => toTranscript(message, skipped))
        .map((message) => acceptRecord(message, source.file, lineOf(index))),
    );
    return { messages, skipped: skipped.skipped };
  },
};
