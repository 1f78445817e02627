// AI SDK prompt rules, strictly: `{ system?, messages }` as `generateText` takes them, key by key.
import { checkAdjacency, checkKeys, checkString, isKnownPart, isObject, type Problems } from "./rule-helpers.js";

const PART_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ["type", "text", "providerOptions"],
  image: ["type", "image", "mediaType", "providerOptions"],
  file: ["type", "data", "mediaType", "filename", "providerOptions"],
  reasoning: ["type", "text", "providerOptions"],
  "tool-call": ["type", "toolCallId", "toolName", "input", "providerExecuted", "providerOptions"],
  "tool-result": ["type", "toolCallId", "toolName", "output", "providerOptions"],
};
const PARTS_BY_ROLE: Readonly<Record<string, readonly string[]>> = {
  user: ["text", "image", "file"],
  assistant: ["text", "file", "reasoning", "tool-call", "tool-result"],
  tool: ["tool-result"],
};
const OUTPUT_TYPES = ["text", "error-text", "json", "error-json", "content", "execution-denied"];

function checkPart(problems: Problems, where: string, role: string, part: unknown): void {
  if (!isKnownPart(problems, where, part, { role, partsByRole: PARTS_BY_ROLE, partKeys: PART_KEYS })) return;
  if (part.type === "text" || part.type === "reasoning") checkString(problems, `${where}.text`, part.text);
  if (part.type === "tool-call" || part.type === "tool-result") {
    checkString(problems, `${where}.toolCallId`, part.toolCallId, { nonEmpty: true });
    checkString(problems, `${where}.toolName`, part.toolName, { nonEmpty: true });
  }
  if (part.type === "tool-result" && (!isObject(part.output) || !OUTPUT_TYPES.includes(String(part.output.type))))
    problems.push(`${where}.output: expected a tool result output`);
}

function idsOf(content: unknown, type: string): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => (isObject(part) && part.type === type && typeof part.toolCallId === "string" ? [part.toolCallId] : []));
}

/** Problems with `prompt` (`{ system?, messages }`, as `toModelMessages` returns it). Empty when it is valid. */
export function checkModelPrompt(prompt: unknown): string[] {
  const problems: Problems = [];
  if (!isObject(prompt)) return ["prompt: expected an object"];
  checkKeys(problems, "prompt", prompt, ["system", "messages"]);
  const system = prompt.system;
  if (system !== undefined && typeof system !== "string") {
    if (!Array.isArray(system)) problems.push("system: expected a string or system messages");
    else
      system.forEach((message, index) => {
        if (!isObject(message) || message.role !== "system") problems.push(`system.${index}: expected a system message`);
        else {
          checkKeys(problems, `system.${index}`, message, ["role", "content", "providerOptions"]);
          checkString(problems, `system.${index}.content`, message.content);
        }
      });
  }
  const messages = prompt.messages;
  if (!Array.isArray(messages) || messages.length === 0) return [...problems, "messages: expected a non-empty array"];
  messages.forEach((message, index) => {
    const where = `messages.${index}`;
    if (!isObject(message) || !["system", "user", "assistant", "tool"].includes(String(message.role))) {
      problems.push(`${where}: expected a message with a known role`);
      return;
    }
    const role = String(message.role);
    checkKeys(problems, where, message, ["role", "content", "providerOptions"]);
    if (role === "system" || (typeof message.content === "string" && role !== "tool")) {
      checkString(problems, `${where}.content`, message.content);
    } else if (!Array.isArray(message.content) || (role === "tool" && message.content.length === 0))
      problems.push(`${where}.content: expected ${role === "tool" ? "a non-empty array" : "a string or an array"} of parts`);
    else message.content.forEach((part, position) => checkPart(problems, `${where}.content.${position}`, role, part));
    if (role === "assistant") {
      const calls = Array.isArray(message.content)
        ? message.content.filter((part) => isObject(part) && part.type === "tool-call" && part.providerExecuted !== true)
        : [];
      const answers: string[] = [];
      for (let next = index + 1; isObject(messages[next]) && (messages[next] as { role?: unknown }).role === "tool"; next += 1)
        answers.push(...idsOf((messages[next] as { content?: unknown }).content, "tool-result"));
      checkAdjacency(problems, where, idsOf(calls, "tool-call"), answers);
    }
    if (role === "tool") {
      const previous = messages[index - 1];
      if (!isObject(previous) || (previous.role !== "assistant" && previous.role !== "tool"))
        problems.push(`${where}: a tool message must follow an assistant message`);
    }
  });
  return problems;
}
