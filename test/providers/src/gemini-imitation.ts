// A strict imitation of the Gemini API's generateContent and streamGenerateContent (SSE): its checks and error
// bodies, thought signatures it holds the client to, a scripted model, o200k × 1.2 tokens (or as told).
import { replyTo, type ScriptedReply } from "@ctxkit/conformance";
import { SKIP_THOUGHT_SIGNATURE_VALIDATOR } from "@ctxkit/google";
import { startLoopbackServer, type LoopbackServer, type RecordedRequest, type Reply } from "./loopback-server.js";
import { DEFAULT_COUNTING, providerTokens, type ProviderCounting } from "./provider-tokens.js";
import { nextMove } from "./scripted-model.js";
import { piecesOf, streamFaultIn, type StreamFault } from "./stream-script.js";

type Part = Record<string, unknown>;
interface Content {
  role?: unknown;
  parts?: unknown;
  [key: string]: unknown;
}

const TOP_LEVEL = new Set(["contents", "systemInstruction", "tools", "toolConfig", "safetySettings", "generationConfig", "cachedContent"]);
const DATA_FIELDS = ["text", "inlineData", "fileData", "functionCall", "functionResponse", "executableCode", "codeExecutionResult"];
const PART_KEYS = new Set([...DATA_FIELDS, "thought", "thoughtSignature", "videoMetadata", "mediaResolution"]);
/** What one image costs, as Gemini counts an image up to 384 pixels a side. */
const IMAGE_TOKENS = 258;

export function geminiError(code: number, status: string, message: string): Reply {
  return { status: code, body: { error: { code, message, status } } };
}

const invalid = (message: string) => geminiError(400, "INVALID_ARGUMENT", message);

/** The 400 the Gemini API answers a prompt over the model's input limit with. */
export const tooLong = (tokens: number, window: number) =>
  invalid(`The input token count (${tokens}) exceeds the maximum number of tokens allowed (${window}).`);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Keys sorted, so a part compares equal however a client ordered its fields. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

function checkPart(part: unknown, where: string, role: string): Reply | undefined {
  if (!isObject(part)) return invalid(`Invalid value at '${where}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Part)`);
  const unknown = Object.keys(part).find((key) => !PART_KEYS.has(key));
  if (unknown !== undefined) return invalid(`Invalid JSON payload received. Unknown name "${unknown}" at '${where}': Cannot find field.`);
  const data = DATA_FIELDS.filter((field) => part[field] !== undefined);
  if (data.length === 0)
    return invalid(`* GenerateContentRequest.${where}.data: required oneof field 'data' must have one initialized field`);
  if (data.length > 1) return invalid(`Invalid value at '${where}' (oneof), oneof field 'data' is already set. Cannot set '${data[1]}'`);
  if (typeof part["text"] === "string" && part["text"].trim() === "" && part["thoughtSignature"] === undefined)
    return invalid("Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again.");
  const inline = part["inlineData"];
  if (
    inline !== undefined &&
    (!isObject(inline) || typeof inline["mimeType"] !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(String(inline["data"])))
  )
    return invalid(`Invalid value at '${where}.inline_data.data' (TYPE_BYTES), Base64 decoding failed`);
  const call = part["functionCall"];
  if (call !== undefined) {
    if (role !== "model") return invalid("Please ensure that function call turns come from the model.");
    if (!isObject(call) || typeof call["name"] !== "string" || call["name"] === "")
      return invalid(`* GenerateContentRequest.${where}.function_call.name: Name cannot be empty.`);
    if (call["args"] !== undefined && !isObject(call["args"]))
      return invalid(`Invalid value at '${where}.function_call.args' (type.googleapis.com/google.protobuf.Struct)`);
  }
  const response = part["functionResponse"];
  if (response !== undefined) {
    if (role !== "user") return invalid("Please ensure that function responses come from the user.");
    if (!isObject(response) || typeof response["name"] !== "string" || response["name"] === "")
      return invalid(`* GenerateContentRequest.${where}.function_response.name: Name cannot be empty.`);
    if (!isObject(response["response"]))
      return invalid(`Invalid value at '${where}.function_response.response' (type.googleapis.com/google.protobuf.Struct)`);
  }
  return undefined;
}

const callsOf = (content: Content) =>
  (content.parts as Part[]).flatMap((part) => (isObject(part["functionCall"]) ? [part["functionCall"] as Part] : []));
const responsesOf = (content: Content) =>
  (content.parts as Part[]).flatMap((part) => (isObject(part["functionResponse"]) ? [part["functionResponse"] as Part] : []));

/** The first rule the request breaks, as the API reports it; undefined when it is well formed. */
function check(body: Record<string, unknown>, model: string | undefined): Reply | undefined {
  const extra = Object.keys(body).find((key) => !TOP_LEVEL.has(key));
  if (extra !== undefined) return invalid(`Invalid JSON payload received. Unknown name "${extra}": Cannot find field.`);
  const system = body["systemInstruction"];
  if (system !== undefined) {
    const parts = isObject(system) ? system["parts"] : undefined;
    if (!Array.isArray(parts) || parts.some((part) => !isObject(part) || Object.keys(part).join() !== "text"))
      return invalid("* GenerateContentRequest.system_instruction: only text parts are supported.");
  }
  const contents = body["contents"];
  if (!Array.isArray(contents) || contents.length === 0) return invalid("* GenerateContentRequest.contents: contents is not specified");
  for (const [index, content] of (contents as Content[]).entries()) {
    const where = `contents[${index}]`;
    if (!isObject(content)) return invalid(`Invalid value at '${where}' (type.googleapis.com/google.ai.generativelanguage.v1beta.Content)`);
    const unknown = Object.keys(content).find((key) => key !== "role" && key !== "parts");
    if (unknown !== undefined) return invalid(`Invalid JSON payload received. Unknown name "${unknown}" at '${where}': Cannot find field.`);
    if (content.role !== "user" && content.role !== "model") return invalid("Please use a valid role: user, model.");
    if (!Array.isArray(content.parts) || content.parts.length === 0)
      return invalid(`* GenerateContentRequest.${where}.parts: contents.parts must not be empty.`);
    for (const [position, part] of content.parts.entries()) {
      const error = checkPart(part, `${where}.parts[${position}]`, content.role);
      if (error !== undefined) return error;
    }
    const previous = (contents as Content[])[index - 1];
    if (previous !== undefined && previous.role === content.role)
      return invalid("Please ensure that multiturn requests alternate between user and model.");
    const calls = callsOf(content);
    if (calls.length > 0 && previous !== undefined && callsOf(previous).length > 0)
      return invalid("Please ensure that function call turn comes immediately after a user turn or after a function response turn.");
    if (calls.length > 0 && previous === undefined)
      return invalid("Please ensure that function call turn comes immediately after a user turn or after a function response turn.");
    const responses = responsesOf(content);
    const asked = previous === undefined ? [] : callsOf(previous);
    if (responses.length > 0 && asked.length === 0)
      return invalid("Please ensure that function response turn comes immediately after a function call turn.");
    if (asked.length > 0 && responses.length !== asked.length)
      return invalid(
        "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
      );
    const open = [...asked];
    for (const response of responses) {
      const match = open.findIndex((call) => call["name"] === response["name"] && call["id"] === response["id"]);
      if (match < 0)
        return invalid(
          `Please ensure that the function response for "${String(response["name"])}" answers a call of the function call turn.`,
        );
      open.splice(match, 1);
    }
  }
  return model === undefined ? undefined : checkSignatures(contents as Content[], model);
}

/**
 * Gemini 3's rules for thought signatures: the first function call of each step of the current turn (since the last
 * user content that is not only function responses) carries one, and each signature is one this model gave, on the
 * part it gave it for, or the documented placeholder for a call it did not sign.
 */
function checkSignatures(contents: readonly Content[], model: string): Reply | undefined {
  const start = contents.findLastIndex(
    (content) => content.role === "user" && (content.parts as Part[]).some((part) => part["functionResponse"] === undefined),
  );
  for (const [index, content] of contents.entries()) {
    const parts = content.parts as Part[];
    const firstCall = parts.find((part) => part["functionCall"] !== undefined);
    if (index > start && content.role === "model" && firstCall !== undefined && firstCall["thoughtSignature"] === undefined)
      return invalid(
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${String((firstCall["functionCall"] as Part)["name"])}\` , position ${index + 1}.`,
      );
    for (const part of parts) {
      const signature = part["thoughtSignature"];
      if (signature === undefined || signature === SKIP_THOUGHT_SIGNATURE_VALIDATOR) continue;
      const given = signedParts.get(String(signature));
      if (given === undefined || given.model !== model || given.part !== canonical(part)) return invalid("Corrupted thought signature.");
    }
  }
  return undefined;
}

/** Every signature the imitations gave, with the model that gave it and the part it signed. */
const signedParts = new Map<string, { model: string; part: string }>();
let sequence = 0;

function sign(part: Part, model: string): Part {
  sequence += 1;
  const signature = Buffer.from(`sig-${sequence}-${model}-${canonical(part).slice(0, 24)}`).toString("base64");
  const signed = { ...part, thoughtSignature: signature };
  signedParts.set(signature, { model, part: canonical(signed) });
  return signed;
}

function textsOf(part: Part): string[] {
  if (typeof part["text"] === "string") return [part["text"]];
  const call = part["functionCall"] as Part | undefined;
  if (call !== undefined) return [String(call["name"]), JSON.stringify(call["args"] ?? {})];
  const response = part["functionResponse"] as Part | undefined;
  if (response !== undefined) return [String(response["name"]), JSON.stringify(response["response"])];
  return [JSON.stringify(part)];
}

const isImage = (part: Part) => part["inlineData"] !== undefined || part["fileData"] !== undefined;

/** The prompt's tokens as the imitated model counts them: texts, calls and responses, images flat, tools and framing. */
function promptTokensOf(body: Record<string, unknown>, ratio: number): number {
  const contents = body["contents"] as Content[];
  const parts = [
    ...(((body["systemInstruction"] as Content | undefined)?.parts as Part[] | undefined) ?? []),
    ...contents.flatMap((content) => content.parts as Part[]),
  ];
  const texts = parts.filter((part) => !isImage(part)).flatMap(textsOf);
  const tools = body["tools"] === undefined ? [] : [JSON.stringify(body["tools"])];
  return providerTokens([...texts, ...tools], contents.length, ratio) + IMAGE_TOKENS * parts.filter(isImage).length;
}

export class GeminiImitation {
  constructor(private readonly counting: ProviderCounting = DEFAULT_COUNTING) {}

  handle(path: string, body: Record<string, unknown>, record: RecordedRequest): Reply {
    const streamed = path.includes(":streamGenerateContent");
    if (streamed && !path.includes("alt=sse")) return invalid("This imitation streams server-sent events only: pass alt=sse.");
    const model = /\/models\/([^/:]+):/.exec(path)?.[1] ?? "";
    const error = check(body, model);
    if (error !== undefined) return error;
    const { ratio, window } = this.counting;
    const promptTokens = promptTokensOf(body, ratio);
    record.promptTokens = promptTokens;
    if (promptTokens > window) return tooLong(promptTokens, window);
    const contents = body["contents"] as Content[];
    const lastUser = contents.findLastIndex(
      (content) => content.role === "user" && (content.parts as Part[]).some((part) => typeof part["text"] === "string"),
    );
    const question = ((contents[lastUser]?.parts as Part[] | undefined) ?? [])
      .flatMap((part) => (typeof part["text"] === "string" ? [part["text"]] : []))
      .join("");
    const resultsSince = contents.slice(lastUser + 1).flatMap(responsesOf).length;
    const move = nextMove(question, resultsSince);
    const thinking = ((body["generationConfig"] as Part | undefined)?.["thinkingConfig"] as Part | undefined)?.["includeThoughts"] === true;
    const thought = {
      text: `The user asked: ${question.slice(0, 40)} I have ${resultsSince} result(s) so far 🤔, so I decide the next step.`,
      thought: true,
    };
    let answer: Part;
    if ("call" in move) {
      answer = sign({ functionCall: { name: "read_file", args: JSON.parse(move.call) } }, model);
    } else answer = thinking ? sign({ text: move.answer }, model) : { text: move.answer };
    const parts = [...(thinking ? [sign(thought, model)] : []), answer];
    const candidatesTokenCount = providerTokens(parts.filter((part) => part["thought"] !== true).flatMap(textsOf), 0, ratio);
    const thoughtsTokenCount = thinking ? providerTokens([thought.text], 0, ratio) : 0;
    const response = {
      candidates: [{ content: { parts, role: "model" }, finishReason: "STOP", index: 0 }],
      usageMetadata: {
        promptTokenCount: promptTokens,
        candidatesTokenCount,
        totalTokenCount: promptTokens + candidatesTokenCount + thoughtsTokenCount,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: promptTokens }],
        ...(thinking ? { thoughtsTokenCount } : {}),
      },
      modelVersion: model,
      responseId: `imitation-${sequence}`,
    };
    return streamed ? streamedGemini(response, streamFaultIn(question)) : { status: 200, body: response };
  }
}

/** One server-sent event as the Gemini API writes it. */
const frame = (data: unknown) => `data: ${JSON.stringify(data)}\r\n\r\n`;

/**
 * The response as `streamGenerateContent?alt=sse` sends it: a chunk per piece of each text (a thought's and an
 * answer's, the signature with the last piece), a function call whole in one chunk, each chunk with the prompt's
 * usage so far; the last chunk brings the `finishReason` and the whole usage.
 */
export function streamedGemini(
  response: { candidates: { content: { parts: Part[] } }[]; usageMetadata?: Part } & Part,
  fault: StreamFault | undefined,
): Reply {
  const { candidates, usageMetadata, ...rest } = response;
  const pieces = candidates[0]!.content.parts.flatMap((part): Part[] => {
    if (typeof part["text"] !== "string") return [part];
    const { thoughtSignature, ...unsigned } = part;
    const texts = piecesOf(part["text"], 12);
    return texts.map((text, index) => ({
      ...unsigned,
      text,
      ...(index === texts.length - 1 && thoughtSignature !== undefined ? { thoughtSignature } : {}),
    }));
  });
  const partial =
    usageMetadata === undefined
      ? undefined
      : { promptTokenCount: usageMetadata["promptTokenCount"], totalTokenCount: usageMetadata["promptTokenCount"] };
  const frames = pieces.map((part, index) => {
    const last = index === pieces.length - 1;
    return frame({
      candidates: [{ content: { parts: [part], role: "model" }, ...(last ? { finishReason: "STOP" } : {}), index: 0 }],
      ...defined({ usageMetadata: last ? usageMetadata : partial }),
      ...rest,
    });
  });
  const half = Math.ceil(frames.length / 2);
  if (fault === "fail")
    return {
      status: 200,
      body: response,
      events: [
        ...frames.slice(0, half),
        frame({
          error: {
            code: 500,
            message:
              "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
            status: "INTERNAL",
          },
        }),
      ],
    };
  return { status: 200, body: response, events: frames, ...(fault === "stall" ? { stallAfter: half } : {}) };
}

/** `counting`: how the imitated model counts tokens and how large its input limit is (default: 1.2× o200k, 8,192). */
export async function startGeminiImitation(counting?: ProviderCounting): Promise<LoopbackServer> {
  const imitation = new GeminiImitation(counting);
  return startLoopbackServer(
    (path, body, record) => {
      if (!/^\/v1beta\/models\/[^/:]+:(generateContent|streamGenerateContent)(\?|$)/.test(path))
        return geminiError(404, "NOT_FOUND", `Method not found: ${path.split("?")[0]}`);
      if (typeof record.headers["x-goog-api-key"] !== "string" || record.headers["x-goog-api-key"] === "")
        return geminiError(
          403,
          "PERMISSION_DENIED",
          "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
        );
      return imitation.handle(path, body, record);
    },
    (text) => invalid(`Invalid JSON payload received. Unexpected token.\n${text.slice(0, 20)}`),
  );
}

function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * How a scripted provider answers a Gemini request (`replyTo` over its contents): held to the imitation's rules
 * first, then an answer with the scripted usage in `usageMetadata` (`cacheRead` as `cachedContentTokenCount`), or
 * the input-limit 400; streamed as the imitation streams when the path asks.
 */
export function scriptedGeminiReply(path: string, body: Record<string, unknown>, scripted: ScriptedReply): Reply {
  const error = check(body, undefined);
  if (error !== undefined) return error;
  const answer = replyTo(scripted, body["contents"]);
  if (answer.kind === "too-long") return tooLong(1_200_293, 1_048_576);
  const { usage } = answer;
  const response = {
    candidates: [{ content: { parts: [{ text: answer.text }], role: "model" }, finishReason: "STOP", index: 0 }],
    ...(usage === null
      ? {}
      : {
          usageMetadata: defined({
            promptTokenCount: usage.input,
            cachedContentTokenCount: usage.cacheRead,
            candidatesTokenCount: usage.output,
          }),
        }),
    modelVersion: "gemini-2.5-flash",
  };
  if (!path.includes(":streamGenerateContent")) return { status: 200, body: response };
  return streamedGemini(response, undefined);
}
