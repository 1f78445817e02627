// Which messages of a prompt the manager has not been given yet, so no message is added twice across steps and turns.
import type { ContextManager, Message } from "@ctxkit/core";
import { textOfPart } from "@ctxkit/core/kit";

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
 * Tracks the conversation as the caller sends it. A prompt that begins with everything seen so far (the
 * whole conversation re-sent, or the next step of a tool loop) adds only what follows; any other prompt
 * (only the new messages, as when ctxkit holds the history) is added whole. System messages are never added:
 * they travel beside the view, as the AI SDK's `system` option.
 */
export class HistorySync {
  private seen: string[] | undefined;

  constructor(private readonly manager: ContextManager) {}

  /** Adds the messages of `prompt` that are new; returns how many were added. */
  async addPrompt(prompt: readonly Message[]): Promise<number> {
    // Seeded from the manager, so a resumed session re-sent whole is not added a second time.
    this.seen ??= (await this.manager.getMessages()).filter((message) => !isInstruction(message)).map(keyOf);
    const messages = prompt.filter((message) => !isInstruction(message));
    const keys = messages.map(keyOf);
    const seen = this.seen;
    const isContinued = seen.length <= keys.length && seen.every((key, index) => keys[index] === key);
    const added = isContinued ? messages.slice(seen.length) : messages;
    if (!isContinued) this.seen = [];
    await this.append(added);
    return added.length;
  }

  /** Adds a model's response: it will come back as part of the next prompt, and is then not added again. */
  async addResponse(messages: readonly Message[]): Promise<void> {
    this.seen ??= (await this.manager.getMessages()).filter((message) => !isInstruction(message)).map(keyOf);
    await this.append(messages.filter((message) => !isInstruction(message)));
  }

  private async append(messages: readonly Message[]): Promise<void> {
    for (const message of messages) {
      await this.manager.addMessage(message);
      this.seen!.push(keyOf(message));
    }
  }
}
