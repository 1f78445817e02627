// Which messages of a prompt the manager has not been given yet, so no message is added twice across steps and turns:
// for a loop wrapper whose SDK sends the whole conversation on each call (the AI SDK's middleware, a LangChain agent's).
import { textOfPart } from "../adapters/content-text.js";
import type { Message } from "../messages/message.js";
import type { ContextManager } from "../protocol.js";

/**
 * A message's identity for this purpose: its role, text, calls and the call it answers. `providerOptions`,
 * reasoning and formatting are left out, because the AI SDK may echo a response back with those changed.
 */
function keyOf(message: Message): string {
  const { content } = message;
  const text =
    content === null
      ? ""
      : typeof content === "string"
        ? content
        : content.map((part) => (part.type === "text" ? textOfPart(part) : part.type)).join("\n");
  const calls =
    message.role === "assistant"
      ? (message.tool_calls ?? []).map((call) => [call.id, call.function.name, canonicalArguments(call.function.arguments)])
      : [];
  return JSON.stringify([message.role, text, calls, message.role === "tool" ? message.tool_call_id : null]);
}

function canonicalArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

function isInstruction(message: Message): boolean {
  return message.role === "system" || message.role === "developer";
}

/**
 * How many messages at the start of `prompt` repeat the end of `stored`: the longest such overlap. The whole
 * history re-sent overlaps all of it; the next step of a tool loop sent as new messages only overlaps the
 * turn it continues; new messages alone overlap nothing.
 */
function overlapOf(stored: readonly string[], prompt: readonly string[]): number {
  const [first] = prompt;
  for (let start = Math.max(0, stored.length - prompt.length); start < stored.length; start += 1) {
    if (stored[start] !== first) continue;
    let index = start;
    while (index < stored.length && stored[index] === prompt[index - start]) index += 1;
    if (index === stored.length) return stored.length - start;
  }
  return 0;
}

/** Where added messages go: the manager itself, or a call's turn that can take them back out. */
interface MessageSink {
  add(messages: readonly Message[]): Promise<void>;
}

/**
 * Tracks the conversation as the manager holds it, by content. A prompt that begins with the end of the stored
 * history (the whole conversation re-sent, the next step of a tool loop, or a window of its latest messages)
 * adds only what follows; any other prompt (only the new messages, as when ctxkit holds the history) is added
 * whole. A caller may switch between the two at any call. System messages are never added: they travel beside
 * the view, as the AI SDK's `system` option.
 */
export class HistorySync {
  private stored: string[] | undefined;

  constructor(private readonly manager: ContextManager) {}

  /** Adds the messages of `prompt` that are new (through `sink` when given); returns how many were added. */
  async addPrompt(prompt: readonly Message[], sink?: MessageSink): Promise<number> {
    const stored = await this.storedKeys();
    const messages = prompt.filter((message) => !isInstruction(message));
    const added = messages.slice(overlapOf(stored, messages.map(keyOf)));
    await this.append(added, sink);
    return added.length;
  }

  /** Adds a model's response: it will come back as part of the next prompt, and is then not added again. */
  async addResponse(messages: readonly Message[], sink?: MessageSink): Promise<void> {
    await this.storedKeys();
    await this.append(
      messages.filter((message) => !isInstruction(message)),
      sink,
    );
  }

  /** The manager's history changed behind this tracker (a failed call's turn taken back out): read it again. */
  forget(): void {
    this.stored = undefined;
  }

  // Seeded from the manager, so a resumed session re-sent whole is not added a second time.
  private async storedKeys(): Promise<string[]> {
    this.stored ??= (await this.manager.getMessages()).filter((message) => !isInstruction(message)).map(keyOf);
    return this.stored;
  }

  private async append(messages: readonly Message[], sink: MessageSink | undefined): Promise<void> {
    for (const message of messages) {
      if (sink === undefined) await this.manager.addMessage(message);
      else await sink.add([message]);
      this.stored!.push(keyOf(message));
    }
  }
}
