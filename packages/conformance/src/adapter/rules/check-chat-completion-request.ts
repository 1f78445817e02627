// OpenAI Chat Completions request rules, strictly: what a `messages` array may hold, key by key.
import { checkAdjacency, checkKeys, checkString, isKnownPart, isObject, type Problems } from "./rule-helpers.js";

const MESSAGE_KEYS: Readonly<Record<string, readonly string[]>> = {
  system: ["role", "content", "name"],
  developer: ["role", "content", "name"],
  user: ["role", "content", "name"],
  assistant: ["role", "content", "name", "tool_calls", "refusal", "audio"],
  tool: ["role", "content", "tool_call_id"],
};

const PARTS_BY_ROLE: Readonly<Record<string, readonly string[]>> = {
  system: ["text"],
  developer: ["text"],
  tool: ["text"],
  user: ["text", "image_url", "input_audio", "file"],
  assistant: ["text", "refusal"],
};

const PART_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ["type", "text"],
  image_url: ["type", "image_url"],
  input_audio: ["type", "input_audio"],
  file: ["type", "file"],
  refusal: ["type", "refusal"],
};

function checkPart(problems: Problems, where: string, role: string, part: unknown): void {
  if (!isKnownPart(problems, where, part, { role, partsByRole: PARTS_BY_ROLE, partKeys: PART_KEYS })) return;
  if (part.type === "text") checkString(problems, `${where}.text`, part.text);
  if (part.type === "refusal") checkString(problems, `${where}.refusal`, part.refusal);
  if (part.type === "image_url") {
    if (!isObject(part.image_url)) problems.push(`${where}.image_url: expected an object`);
    else {
      checkKeys(problems, `${where}.image_url`, part.image_url, ["url", "detail"]);
      checkString(problems, `${where}.image_url.url`, part.image_url.url, { nonEmpty: true });
    }
  }
}

function checkContent(problems: Problems, where: string, role: string, content: unknown, hasCalls: boolean): void {
  if (typeof content === "string") return;
  if (content === null || content === undefined) {
    if (role !== "assistant" || !hasCalls) problems.push(`${where}.content: required`);
    return;
  }
  if (!Array.isArray(content)) {
    problems.push(`${where}.content: expected a string or an array of parts`);
    return;
  }
  if (content.length === 0) problems.push(`${where}.content: an array of parts must not be empty`);
  content.forEach((part, position) => checkPart(problems, `${where}.content.${position}`, role, part));
}

function callIdsOf(problems: Problems, where: string, calls: unknown): string[] {
  if (calls === undefined) return [];
  if (!Array.isArray(calls) || calls.length === 0) {
    problems.push(`${where}.tool_calls: expected a non-empty array`);
    return [];
  }
  return calls.flatMap((call, position) => {
    const at = `${where}.tool_calls.${position}`;
    if (!isObject(call)) {
      problems.push(`${at}: expected an object`);
      return [];
    }
    checkKeys(problems, at, call, ["id", "type", "function"]);
    if (call.type !== "function") problems.push(`${at}.type: expected "function"`);
    if (!isObject(call.function)) problems.push(`${at}.function: expected an object`);
    else {
      checkKeys(problems, `${at}.function`, call.function, ["name", "arguments"]);
      checkString(problems, `${at}.function.name`, call.function.name, { nonEmpty: true });
      checkString(problems, `${at}.function.arguments`, call.function.arguments);
    }
    return checkString(problems, `${at}.id`, call.id, { nonEmpty: true }) ? [call.id as string] : [];
  });
}

/**
 * Problems with `messages` as a Chat Completions request body would carry them: unknown keys on messages,
 * parts and calls; parts a role does not take; every assistant's calls answered by tool messages right
 * after it, and no tool message that answers nothing. Empty when the request is valid.
 */
export function checkChatCompletionRequest(messages: unknown): string[] {
  const problems: Problems = [];
  if (!Array.isArray(messages) || messages.length === 0) return ["messages: expected a non-empty array"];
  let open: { where: string; calls: string[]; answers: string[] } | undefined;
  const close = () => {
    if (open !== undefined) checkAdjacency(problems, open.where, open.calls, open.answers);
    open = undefined;
  };
  messages.forEach((message, index) => {
    const where = `messages.${index}`;
    if (!isObject(message) || typeof message.role !== "string" || MESSAGE_KEYS[message.role] === undefined) {
      problems.push(`${where}: expected a message with a known role`);
      return;
    }
    const role = message.role;
    checkKeys(problems, where, message, MESSAGE_KEYS[role]!);
    if (message.name !== undefined) checkString(problems, `${where}.name`, message.name);
    const calls = role === "assistant" ? callIdsOf(problems, where, message.tool_calls) : [];
    checkContent(problems, where, role, message.content, calls.length > 0);
    if (role === "tool") {
      if (checkString(problems, `${where}.tool_call_id`, message.tool_call_id, { nonEmpty: true })) {
        if (open === undefined) problems.push(`${where}: a tool message must follow an assistant message with tool_calls`);
        else open.answers.push(message.tool_call_id as string);
      }
      return;
    }
    close();
    if (calls.length > 0) open = { where, calls, answers: [] };
  });
  close();
  return problems;
}
