// Anthropic's request rules, mirrored so tests judge what would reach the API: roles alternate, and every
// tool_use is answered by a tool_result, first in the very next user message (the API's 400 otherwise).
import type { ContentBlockParam, MessageParam } from "@anthropic-ai/sdk/resources/messages";

export function checkAnthropicMessages(messages: readonly MessageParam[]): string[] {
  const problems: string[] = [];
  if (messages[0] !== undefined && messages[0].role !== "user") problems.push('0: first message must use the "user" role');
  messages.forEach((message, index) => {
    if (message.role === "system") problems.push(`${index}: a system message belongs in the system option`);
    if (index > 0 && messages[index - 1]!.role === message.role) problems.push(`${index}: two ${message.role} messages in a row`);
    if (typeof message.content !== "string" && message.content.length === 0) problems.push(`${index}: empty content`);
  });
  messages.forEach((message, index) => {
    const blocks = blocksOf(message);
    const toolUses = blocks.filter((block) => block.type === "tool_use").map((block) => (block.type === "tool_use" ? block.id : ""));
    if (message.role === "assistant" && toolUses.length > 0) {
      const next = messages[index + 1];
      const nextBlocks = next === undefined ? [] : blocksOf(next);
      const firstOther = nextBlocks.findIndex((block) => block.type !== "tool_result");
      const leading = firstOther === -1 ? nextBlocks : nextBlocks.slice(0, firstOther);
      const answered = new Set(leading.map((block) => (block.type === "tool_result" ? block.tool_use_id : "")));
      for (const id of toolUses) {
        if (next?.role !== "user" || !answered.has(id))
          problems.push(`${index}: tool_use ids were found without tool_result blocks immediately after: ${id}`);
      }
    }
    if (message.role === "user") {
      const previousUses = new Set(
        index === 0 ? [] : blocksOf(messages[index - 1]!).flatMap((block) => (block.type === "tool_use" ? [block.id] : [])),
      );
      for (const block of blocks) {
        if (block.type === "tool_result" && !previousUses.has(block.tool_use_id))
          problems.push(`${index}: unexpected tool_use_id found in tool_result blocks: ${block.tool_use_id}`);
      }
    }
  });
  return problems;
}

function blocksOf(message: MessageParam): readonly ContentBlockParam[] {
  return typeof message.content === "string" ? [] : message.content;
}

/** Breakpoints in a request: system blocks and message blocks carrying `cache_control`. */
export function countBreakpoints(request: {
  system?: readonly { cache_control?: unknown }[] | string;
  messages: readonly MessageParam[];
}): number {
  const system = typeof request.system === "string" || request.system === undefined ? [] : request.system;
  const blocks = [...system, ...request.messages.flatMap(blocksOf)];
  return blocks.filter((block) => "cache_control" in block && block.cache_control != null).length;
}
