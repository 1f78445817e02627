// Where `cache_control` goes so Anthropic's prompt cache hits: on the prefix that did not change.
import type { Message } from "@ctxkit/core";
import type { CacheControlEphemeral, ContentBlockParam, TextBlockParam } from "@anthropic-ai/sdk/resources/messages";

export interface CacheOptions {
  /**
   * The view of this session's previous request. The message both views share last gets a breakpoint,
   * so the prefix the previous request cached is read back even after many new blocks.
   */
  previous?: readonly Message[];
  /** `false` places no breakpoint. Default `true`. */
  cache?: boolean;
  /** The cache entry's lifetime. Default Anthropic's (5 minutes). */
  ttl?: "5m" | "1h";
}

/** Anthropic allows at most four breakpoints in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;

interface Draft {
  readonly view: readonly Message[];
  readonly system: TextBlockParam[];
  readonly messages: { content: ContentBlockParam[] }[];
  readonly ends: readonly ({ message: number; block: number } | undefined)[];
}

/**
 * Marks, in order of worth: the end of the system prompt, the end of the prefix shared with the previous view
 * (a cache read), and the end of this request (the write the next request reads). Fewer when blocks already
 * carry breakpoints, so the total never passes four.
 */
export function placeCacheBreakpoints(draft: Draft, options: CacheOptions): void {
  if (options.cache === false) {
    capStoredBreakpoints(draft);
    return;
  }
  const cacheControl: CacheControlEphemeral =
    options.ttl === undefined ? { type: "ephemeral" as const } : { type: "ephemeral" as const, ttl: options.ttl };
  let budget = MAX_CACHE_BREAKPOINTS - capStoredBreakpoints(draft);

  const lastSystem = draft.system.length - 1;
  if (lastSystem >= 0 && budget > 0 && draft.system[lastSystem]!.cache_control == null) {
    draft.system[lastSystem] = { ...draft.system[lastSystem]!, cache_control: cacheControl };
    budget -= 1;
  }
  const targets = [sharedPrefixEnd(draft, options.previous), lastEnd(draft)];
  for (const target of targets) {
    if (target === undefined || budget === 0) continue;
    if (markBlock(draft.messages[target.message]!.content, target.block, cacheControl)) budget -= 1;
  }
}

function sharedPrefixEnd(draft: Draft, previous: readonly Message[] | undefined): { message: number; block: number } | undefined {
  if (previous === undefined) return undefined;
  let shared = 0;
  while (shared < previous.length && shared < draft.view.length && isSameMessage(previous[shared]!, draft.view[shared]!)) shared += 1;
  // Only a strict prefix: when nothing was added, the end of the request is the same place.
  for (let index = Math.min(shared, draft.view.length) - 1; index >= 0; index -= 1) {
    const end = draft.ends[index];
    if (end !== undefined) return end;
  }
  return undefined;
}

function lastEnd(draft: Draft): { message: number; block: number } | undefined {
  const message = draft.messages.length - 1;
  return message < 0 ? undefined : { message, block: draft.messages[message]!.content.length - 1 };
}

// Views reuse frozen message objects, so identity settles almost every comparison without serializing.
function isSameMessage(left: Message, right: Message): boolean {
  return left === right || JSON.stringify(left) === JSON.stringify(right);
}

/** Marks the block at `position`, or the nearest one before it that takes `cache_control` (thinking blocks do not). */
function markBlock(blocks: ContentBlockParam[], position: number, cacheControl: CacheControlEphemeral): boolean {
  for (let index = position; index >= 0; index -= 1) {
    const block = blocks[index]!;
    if (block.type === "thinking" || block.type === "redacted_thinking") continue;
    if (block.cache_control != null) return false;
    blocks[index] = { ...block, cache_control: cacheControl };
    return true;
  }
  return false;
}

interface BlockSlot {
  readonly blocks: { cache_control?: unknown; type: string }[];
  readonly index: number;
}

/** Every block of the request, tool results' nested blocks included, in request order. */
function slotsOf(draft: Draft): BlockSlot[] {
  const slots: BlockSlot[] = [];
  const visit = (blocks: { cache_control?: unknown; type: string; content?: unknown }[]) =>
    blocks.forEach((block, index) => {
      slots.push({ blocks, index });
      if (block.type === "tool_result" && Array.isArray(block.content)) visit(block.content);
    });
  visit(draft.system);
  for (const message of draft.messages) visit(message.content);
  return slots;
}

/**
 * Stored blocks (a document kept from an earlier request, say) may carry their own `cache_control`. The latest
 * four are kept, since they cover the longest prefix, and the rest removed, so with the breakpoints placed
 * here a request never has more than Anthropic's four. Returns how many stored breakpoints remain.
 */
function capStoredBreakpoints(draft: Draft): number {
  const marked = slotsOf(draft).filter(({ blocks, index }) => blocks[index]!.cache_control != null);
  const excess = marked.slice(0, Math.max(0, marked.length - MAX_CACHE_BREAKPOINTS));
  for (const { blocks, index } of excess) {
    const { cache_control: _cacheControl, ...rest } = blocks[index]!;
    blocks[index] = rest;
  }
  return marked.length - excess.length;
}
