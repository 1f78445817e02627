// A view whose shortened, cleared or rewritten parts reach the provider as content, never as a stored item id.
import type { ContentPart, Message, ToolCall } from "@ctxkit/core";

/**
 * The AI SDK's OpenAI Responses provider (with its default `store: true`) sends a part that carries
 * `providerOptions.openai.itemId` as an `item_reference`: the server then reads the item it stored, the
 * model's full original, and ctxkit's compaction of it is silently undone. A part keeps its id only while
 * it is exactly what the history holds under that id.
 */
type WithOptions = { providerOptions?: Record<string, unknown> };

function itemIdsOf(value: WithOptions): string[] {
  const options = value.providerOptions;
  if (typeof options !== "object" || options === null) return [];
  return Object.values(options).flatMap((entry) => {
    const itemId = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>)["itemId"] : undefined;
    return typeof itemId === "string" ? [itemId] : [];
  });
}

function fingerprintOf(value: WithOptions): string {
  const { providerOptions: _providerOptions, ...rest } = value;
  return JSON.stringify(rest);
}

function withoutItemIds<T extends WithOptions>(value: T): T {
  const providerOptions = Object.fromEntries(
    Object.entries(value.providerOptions ?? {}).map(([provider, entry]) => {
      if (typeof entry !== "object" || entry === null) return [provider, entry];
      const { itemId: _itemId, ...rest } = entry as Record<string, unknown>;
      return [provider, rest];
    }),
  );
  return { ...value, providerOptions };
}

/** The parts and calls of a message that may carry an item id; a wrapped provider-executed part holds one inside. */
function carriersOf(message: Message): WithOptions[] {
  const parts = Array.isArray(message.content) ? (message.content as WithOptions[]) : [];
  const wrapped = parts.flatMap((part) => {
    const inner = (part as Record<string, unknown>)["part"];
    return typeof inner === "object" && inner !== null ? [inner as WithOptions] : [];
  });
  const calls = message.role === "assistant" ? ((message.tool_calls ?? []) as WithOptions[]) : [];
  return [...parts, ...wrapped, ...calls];
}

function originalsOf(history: readonly Message[]): Map<string, string> {
  const originals = new Map<string, string>();
  for (const message of history)
    for (const carrier of carriersOf(message)) for (const itemId of itemIdsOf(carrier)) originals.set(itemId, fingerprintOf(carrier));
  return originals;
}

/** Keeps `value` when it is the original of each item id it carries; otherwise the same without its ids. */
function checked<T extends WithOptions>(value: T, originals: ReadonlyMap<string, string>): T {
  const itemIds = itemIdsOf(value);
  if (itemIds.length === 0) return value;
  const fingerprint = fingerprintOf(value);
  return itemIds.every((itemId) => originals.get(itemId) === fingerprint) ? value : withoutItemIds(value);
}

function checkedPart(part: ContentPart, originals: ReadonlyMap<string, string>): ContentPart {
  const inner = (part as Record<string, unknown>)["part"];
  if (typeof inner === "object" && inner !== null) {
    const checkedInner = checked(inner as WithOptions, originals);
    if (checkedInner !== inner) return { ...part, part: checkedInner } as ContentPart;
  }
  return checked(part as WithOptions, originals) as ContentPart;
}

/**
 * The view with the item id taken off every part or call that differs from the history's part of that id
 * (trimmed, cleared, summarized). Untouched messages come back as the same objects.
 */
export function withoutEditedItemIds(view: readonly Message[], history: readonly Message[]): Message[] {
  const carriesIds = view.some((message) => carriersOf(message).some((carrier) => itemIdsOf(carrier).length > 0));
  if (!carriesIds) return [...view];
  const originals = originalsOf(history);
  return view.map((message) => {
    const content = Array.isArray(message.content) ? message.content.map((part) => checkedPart(part, originals)) : message.content;
    const calls =
      message.role === "assistant" && message.tool_calls !== undefined
        ? message.tool_calls.map((call) => checked(call as ToolCall & WithOptions, originals))
        : undefined;
    const contentChanged =
      Array.isArray(message.content) &&
      (content as ContentPart[]).some((part, index) => part !== (message.content as ContentPart[])[index]);
    const callsChanged = calls?.some((call, index) => call !== (message as { tool_calls: ToolCall[] }).tool_calls[index]) === true;
    if (!contentChanged && !callsChanged) return message;
    return { ...message, content, ...(calls === undefined ? {} : { tool_calls: calls }) } as Message;
  });
}

/** `withoutEditedItemIds` against the manager's history, read only when the view carries an item id. */
export async function withoutEditedItemIdsIn(view: Message[], manager: { getMessages(): Promise<Message[]> }): Promise<Message[]> {
  const carriesIds = view.some((message) => carriersOf(message).some((carrier) => itemIdsOf(carrier).length > 0));
  return carriesIds ? withoutEditedItemIds(view, await manager.getMessages()) : view;
}
