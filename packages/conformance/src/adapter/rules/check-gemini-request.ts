// Gemini generateContent request rules, strictly: keys, one datum per part, role alternation from a user turn,
// non-empty texts, and every function call answered in the next turn (by id, or by name where calls have no id).
import { checkKeys, checkString, isObject, type Problems } from "./rule-helpers.js";

const DATA_FIELDS = ["text", "inlineData", "fileData", "functionCall", "functionResponse", "executableCode", "codeExecutionResult"];
const PART_KEYS = [...DATA_FIELDS, "thought", "thoughtSignature", "videoMetadata"];

interface Call {
  readonly name: unknown;
  readonly id: unknown;
}

function checkPart(problems: Problems, where: string, role: string, part: unknown): { call?: Call; response?: Call } {
  if (!isObject(part)) {
    problems.push(`${where}: a part must be an object`);
    return {};
  }
  checkKeys(problems, where, part, PART_KEYS);
  const data = DATA_FIELDS.filter((field) => part[field] !== undefined);
  if (data.length !== 1) problems.push(`${where}: a part holds exactly one of ${DATA_FIELDS.join(", ")}, not ${data.length}`);
  if (
    part.text !== undefined &&
    checkString(problems, `${where}.text`, part.text) &&
    part.text.trim() === "" &&
    part.thoughtSignature === undefined
  )
    problems.push(`${where}.text: Gemini refuses an empty text parameter`);
  if (part.thoughtSignature !== undefined) checkString(problems, `${where}.thoughtSignature`, part.thoughtSignature, { nonEmpty: true });
  for (const [field, keys] of [
    ["inlineData", ["mimeType", "data"]],
    ["fileData", ["mimeType", "fileUri"]],
  ] as const) {
    const value = part[field];
    if (value === undefined) continue;
    if (!isObject(value)) problems.push(`${where}.${field}: expected an object`);
    else for (const key of keys) checkString(problems, `${where}.${field}.${key}`, value[key], { nonEmpty: true });
  }
  const call = part.functionCall;
  if (call !== undefined) {
    if (role !== "model") problems.push(`${where}: a functionCall belongs in a model turn`);
    if (!isObject(call)) return {};
    checkKeys(problems, `${where}.functionCall`, call, ["id", "name", "args"]);
    checkString(problems, `${where}.functionCall.name`, call.name, { nonEmpty: true });
    if (call.args !== undefined && !isObject(call.args)) problems.push(`${where}.functionCall.args: expected an object`);
    if (call.id !== undefined) checkString(problems, `${where}.functionCall.id`, call.id, { nonEmpty: true });
    return { call: { name: call.name, id: call.id } };
  }
  const response = part.functionResponse;
  if (response !== undefined) {
    if (role !== "user") problems.push(`${where}: a functionResponse belongs in a user turn`);
    if (!isObject(response)) return {};
    checkKeys(problems, `${where}.functionResponse`, response, ["id", "name", "response"]);
    checkString(problems, `${where}.functionResponse.name`, response.name, { nonEmpty: true });
    if (!isObject(response.response)) problems.push(`${where}.functionResponse.response: expected an object`);
    return { response: { name: response.name, id: response.id } };
  }
  return {};
}

/** Each response answers one call of the turn before, by id and name; every call is answered. */
function checkAnswers(problems: Problems, where: string, calls: readonly Call[], responses: readonly Call[]): void {
  const open = [...calls];
  for (const response of responses) {
    const match = open.findIndex((call) => call.name === response.name && call.id === response.id);
    if (match < 0)
      problems.push(`${where}: a response for ${String(response.name)} (id ${String(response.id)}), which the turn before did not call`);
    else open.splice(match, 1);
  }
  for (const call of open) problems.push(`${where}: the call ${String(call.name)} (id ${String(call.id)}) has no response right after it`);
}

/** Every problem in a `{ systemInstruction?, contents }` request; none when the Gemini API would take it. */
export function checkGeminiRequest(request: unknown): string[] {
  const problems: Problems = [];
  if (!isObject(request)) return ["request: expected an object { systemInstruction?, contents }"];
  checkKeys(problems, "request", request, ["systemInstruction", "contents"]);
  const system = request.systemInstruction;
  if (system !== undefined) {
    if (!isObject(system) || !Array.isArray(system.parts)) problems.push("systemInstruction: expected { parts: [...] }");
    else
      system.parts.forEach((part, index) => {
        const where = `systemInstruction.parts.${index}`;
        if (!isObject(part)) problems.push(`${where}: a part must be an object`);
        else {
          checkKeys(problems, where, part, ["text"]);
          if (checkString(problems, `${where}.text`, part.text) && part.text.trim() === "")
            problems.push(`${where}.text: Gemini refuses an empty text parameter`);
        }
      });
  }
  const contents = request.contents;
  if (!Array.isArray(contents) || contents.length === 0) return [...problems, "contents: expected a non-empty array"];
  let calls: Call[] = [];
  contents.forEach((content, index) => {
    const where = `contents.${index}`;
    if (!isObject(content)) {
      problems.push(`${where}: a content must be an object`);
      return;
    }
    checkKeys(problems, where, content, ["role", "parts"]);
    const role = content.role;
    if (role !== "user" && role !== "model") problems.push(`${where}.role: expected "user" or "model"`);
    if (index === 0 && role !== "user") problems.push(`${where}: the first content must be a user turn`);
    const previous = contents[index - 1] as Record<string, unknown> | undefined;
    if (previous !== undefined && previous.role === role) problems.push(`${where}: two ${String(role)} turns in a row; roles alternate`);
    const parts = Array.isArray(content.parts) ? content.parts : [];
    if (parts.length === 0) problems.push(`${where}.parts: expected a non-empty array`);
    const found = parts.map((part, position) => checkPart(problems, `${where}.parts.${position}`, String(role), part));
    checkAnswers(
      problems,
      where,
      calls,
      found.flatMap((each) => (each.response === undefined ? [] : [each.response])),
    );
    calls = found.flatMap((each) => (each.call === undefined ? [] : [each.call]));
  });
  if (calls.length > 0) checkAnswers(problems, `contents.${contents.length}`, calls, []);
  return problems;
}
