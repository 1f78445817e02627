// Anthropic Messages request rules, strictly: keys, block types, ids, tool_use/tool_result adjacency,
// role alternation, non-empty content and the limit of four cache breakpoints.
import { checkAdjacency, checkKeys, checkString, isObject, type Problems } from "./rule-helpers.js";

const ID_PATTERN = /^[a-zA-Z0-9_-]+$/;
export const ANTHROPIC_MAX_CACHE_BREAKPOINTS = 4;

const BLOCK_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ["type", "text", "cache_control", "citations"],
  image: ["type", "source", "cache_control"],
  document: ["type", "source", "title", "context", "citations", "cache_control"],
  search_result: ["type", "source", "title", "content", "citations", "cache_control"],
  tool_use: ["type", "id", "name", "input", "cache_control"],
  tool_result: ["type", "tool_use_id", "content", "is_error", "cache_control"],
  thinking: ["type", "thinking", "signature"],
  redacted_thinking: ["type", "data"],
  // A context-management summary the API returned: sent back verbatim, standing for everything before it.
  compaction: ["type", "content", "encrypted_content", "signature", "tool_changes", "cache_control"],
};
const RESULT_CONTENT_TYPES = ["text", "image", "document", "search_result"];

function checkBlock(problems: Problems, where: string, role: string, block: unknown): number {
  if (!isObject(block) || typeof block.type !== "string") {
    problems.push(`${where}: a block must be an object with a string type`);
    return 0;
  }
  const allowed = BLOCK_KEYS[block.type];
  if (allowed === undefined) {
    problems.push(`${where}: unknown block type "${block.type}"`);
    return 0;
  }
  checkKeys(problems, where, block, allowed);
  if (block.type === "text" && checkString(problems, `${where}.text`, block.text) && (block.text as string).trim() === "")
    problems.push(`${where}.text: text blocks must contain non-whitespace text`);
  if (block.type === "tool_use") {
    if (role !== "assistant") problems.push(`${where}: tool_use belongs in an assistant message`);
    if (checkString(problems, `${where}.id`, block.id) && !ID_PATTERN.test(block.id as string))
      problems.push(`${where}.id: "${String(block.id)}" does not match ${ID_PATTERN}`);
    checkString(problems, `${where}.name`, block.name, { nonEmpty: true });
    if (!isObject(block.input)) problems.push(`${where}.input: expected an object`);
  }
  if (block.type === "tool_result") {
    if (role !== "user") problems.push(`${where}: tool_result belongs in a user message`);
    if (checkString(problems, `${where}.tool_use_id`, block.tool_use_id) && !ID_PATTERN.test(block.tool_use_id as string))
      problems.push(`${where}.tool_use_id: "${String(block.tool_use_id)}" does not match ${ID_PATTERN}`);
    if (block.is_error !== undefined && typeof block.is_error !== "boolean") problems.push(`${where}.is_error: expected a boolean`);
    let nested = 0;
    if (Array.isArray(block.content))
      block.content.forEach((item, position) => {
        const at = `${where}.content.${position}`;
        if (isObject(item) && !RESULT_CONTENT_TYPES.includes(String(item.type)))
          problems.push(`${at}: a tool result takes no "${String(item.type)}"`);
        else nested += checkBlock(problems, at, role, item);
      });
    else if (block.content !== undefined && typeof block.content !== "string")
      problems.push(`${where}.content: expected a string or blocks`);
    return nested + (block.cache_control == null ? 0 : 1);
  }
  if ((block.type === "thinking" || block.type === "redacted_thinking" || block.type === "compaction") && role !== "assistant")
    problems.push(`${where}: ${block.type} belongs in an assistant message`);
  if (block.type === "compaction" && where !== "messages.0.content.0")
    problems.push(`${where}: a compaction block must be the first block of the conversation (send the view from the latest one on)`);
  return block.cache_control == null ? 0 : 1;
}

function blocksOf(content: unknown): unknown[] {
  return Array.isArray(content) ? content : [];
}

function opensWithCompaction(message: Record<string, unknown>): boolean {
  const [first] = blocksOf(message.content);
  return isObject(first) && first.type === "compaction";
}

function idsOf(blocks: readonly unknown[], type: "tool_use" | "tool_result"): string[] {
  const key = type === "tool_use" ? "id" : "tool_use_id";
  return blocks.flatMap((block) =>
    isObject(block) && block.type === type && typeof block[key] === "string" ? [block[key] as string] : [],
  );
}

/**
 * Problems with `request` (`{ system?, messages }`, as `toAnthropicMessages` returns it) as the Messages API
 * would judge it. Empty when the request is valid.
 */
export function checkAnthropicRequest(request: unknown): string[] {
  const problems: Problems = [];
  if (!isObject(request)) return ["request: expected an object"];
  checkKeys(problems, "request", request, ["system", "messages"]);
  let breakpoints = 0;
  if (request.system !== undefined && typeof request.system !== "string") {
    if (!Array.isArray(request.system) || request.system.length === 0)
      problems.push("system: expected a string or a non-empty array of text blocks");
    else
      request.system.forEach((block, position) => {
        if (isObject(block) && block.type !== "text") problems.push(`system.${position}: only text blocks`);
        else breakpoints += checkBlock(problems, `system.${position}`, "system", block);
      });
  }
  const messages = request.messages;
  if (!Array.isArray(messages) || messages.length === 0) return [...problems, "messages: expected a non-empty array"];
  messages.forEach((message, index) => {
    const where = `messages.${index}`;
    if (!isObject(message)) {
      problems.push(`${where}: expected an object`);
      return;
    }
    checkKeys(problems, where, message, ["role", "content"]);
    const role = message.role;
    if (role !== "user" && role !== "assistant") problems.push(`${where}.role: expected "user" or "assistant"`);
    // A conversation may open with the assistant's compaction block, which stands for the turns before it.
    if (index === 0 && role !== "user" && !opensWithCompaction(message))
      problems.push(`${where}: the first message must be a user message`);
    if (index > 0 && isObject(messages[index - 1]) && (messages[index - 1] as { role?: unknown }).role === role)
      problems.push(`${where}: two ${String(role)} messages in a row`);
    if (typeof message.content === "string") {
      if (message.content.trim() === "") problems.push(`${where}.content: must not be empty`);
    } else if (!Array.isArray(message.content) || message.content.length === 0) problems.push(`${where}.content: must not be empty`);
    else
      message.content.forEach(
        (block, position) => (breakpoints += checkBlock(problems, `${where}.content.${position}`, String(role), block)),
      );
    // Every tool_use is answered first thing in the very next (user) message, and nothing else is answered there.
    const uses = role === "assistant" ? idsOf(blocksOf(message.content), "tool_use") : [];
    const next = messages[index + 1];
    const nextBlocks = isObject(next) ? blocksOf(next.content) : [];
    const firstOther = nextBlocks.findIndex((block) => !isObject(block) || block.type !== "tool_result");
    const leading = firstOther === -1 ? nextBlocks : nextBlocks.slice(0, firstOther);
    if (uses.length > 0) checkAdjacency(problems, where, uses, idsOf(leading, "tool_result"));
    if (role === "user") {
      const previous = messages[index - 1];
      const previousUses = isObject(previous) && previous.role === "assistant" ? idsOf(blocksOf(previous.content), "tool_use") : [];
      const results = idsOf(blocksOf(message.content), "tool_result");
      if (previousUses.length === 0 && results.length > 0)
        problems.push(`${where}: tool_result blocks answer no tool_use right before them`);
      const afterText = blocksOf(message.content).findIndex((block) => !isObject(block) || block.type !== "tool_result");
      if (afterText >= 0 && idsOf(blocksOf(message.content).slice(afterText), "tool_result").length > 0)
        problems.push(`${where}: tool_result blocks must come before any other block`);
    }
  });
  if (breakpoints > ANTHROPIC_MAX_CACHE_BREAKPOINTS)
    problems.push(`request: ${breakpoints} cache_control breakpoints, more than ${ANTHROPIC_MAX_CACHE_BREAKPOINTS}`);
  return problems;
}
