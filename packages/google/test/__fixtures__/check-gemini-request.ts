// Gemini's request rules as the conformance suite checks a payload: every problem the API would report.
import type { GeminiRequest } from "../../src/to-gemini-contents.js";

const DATA_FIELDS = ["text", "inlineData", "fileData", "functionCall", "functionResponse", "executableCode", "codeExecutionResult"];
const PART_KEYS = new Set([...DATA_FIELDS, "thought", "thoughtSignature", "videoMetadata"]);

/** Roles alternate from a user turn; every part holds one datum; every function call is answered in the next turn. */
export function checkGeminiRequest(request: GeminiRequest): string[] {
  const problems: string[] = [];
  const { contents } = request;
  if (!Array.isArray(contents) || contents.length === 0) return ["contents: at least one content is required"];
  for (const part of request.systemInstruction?.parts ?? [])
    if (Object.keys(part).join() !== "text") problems.push(`systemInstruction: a part that is no text: ${JSON.stringify(part)}`);
  let open: { name?: string | undefined; id?: string | undefined }[] = [];
  contents.forEach((content, index) => {
    const keys = Object.keys(content).filter((key) => key !== "role" && key !== "parts");
    if (keys.length > 0) problems.push(`contents[${index}]: unknown field ${keys[0]}`);
    if (content.role !== "user" && content.role !== "model") problems.push(`contents[${index}].role: expected user or model`);
    if (index === 0 && content.role !== "user") problems.push("contents[0]: the first content must be a user turn");
    if (index > 0 && contents[index - 1]!.role === content.role) problems.push(`contents[${index}]: roles must alternate`);
    const parts = content.parts ?? [];
    if (parts.length === 0) problems.push(`contents[${index}].parts: must not be empty`);
    parts.forEach((part, position) => {
      const unknown = Object.keys(part).find((key) => !PART_KEYS.has(key));
      if (unknown !== undefined) problems.push(`contents[${index}].parts[${position}]: unknown field ${unknown}`);
      const data = DATA_FIELDS.filter((field) => (part as Record<string, unknown>)[field] !== undefined);
      if (data.length !== 1) problems.push(`contents[${index}].parts[${position}]: holds ${data.length} data fields, expected one`);
      if (part.text !== undefined && part.text.trim() === "" && part.thoughtSignature === undefined)
        problems.push(`contents[${index}].parts[${position}]: an empty text`);
      if (part.functionCall !== undefined && content.role !== "model") problems.push(`contents[${index}]: a function call in a user turn`);
      if (part.functionResponse !== undefined && content.role !== "user")
        problems.push(`contents[${index}]: a function response in a model turn`);
    });
    const responses = parts.flatMap((part) => (part.functionResponse === undefined ? [] : [part.functionResponse]));
    if (open.length !== responses.length)
      problems.push(
        `contents[${index}]: the number of function response parts (${responses.length}) is not the number of function call parts of the turn before (${open.length})`,
      );
    else {
      // Each response answers one call: by id where the calls have ids, by name where they have none.
      const unanswered = [...open];
      for (const response of responses) {
        const match = unanswered.findIndex((call) => call.id === response.id && call.name === response.name);
        if (match < 0)
          problems.push(`contents[${index}].parts: the response (${response.name}, ${response.id}) answers no call of the turn before`);
        else unanswered.splice(match, 1);
      }
    }
    open = parts.flatMap((part) => (part.functionCall === undefined ? [] : [{ name: part.functionCall.name, id: part.functionCall.id }]));
  });
  if (open.length > 0) problems.push(`contents[${contents.length - 1}]: function calls with no response after them`);
  return problems;
}
