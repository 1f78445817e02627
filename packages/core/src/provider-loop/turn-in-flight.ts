// A provider call's messages in the manager only if the call succeeds: what a failed call added is taken back out.
import type { Message } from "../messages/message.js";
import { canReplaceConditionally, type ContextManager } from "../protocol.js";

function isSameMessage(held: Message | undefined, read: Message | undefined): boolean {
  return held === read || JSON.stringify(held) === JSON.stringify(read);
}

/**
 * The messages one call adds (the caller's new messages, then the provider's answer), recorded so that
 * `undo` can restore the history as it was before the call. Every `add` goes through it.
 */
export class TurnInFlight {
  private added = 0;

  private constructor(
    private readonly manager: ContextManager,
    private readonly before: readonly Message[],
  ) {}

  /** Reads the history the call starts from. */
  static async begin(manager: ContextManager): Promise<TurnInFlight> {
    return new TurnInFlight(manager, await manager.getMessages());
  }

  /** How many messages the call has added so far. */
  get addedCount(): number {
    return this.added;
  }

  async add(messages: readonly Message[]): Promise<void> {
    for (const message of messages) {
      await this.manager.addMessage(message);
      this.added += 1;
    }
  }

  /**
   * Takes out what this call added, when the history is still what it read plus those messages. Another
   * writer's messages are never taken: with a message of theirs since (a shared session), the history stays.
   * A manager with `replaceMessages` makes the edit only over the history it read here, a resumed journal too
   * (a message another writer added in between rejects it, and the history stays); one without it gets
   * `setMessages`, which a resumed journal ignores (it keeps its history, and says so).
   */
  async undo(): Promise<void> {
    if (this.added === 0) return;
    const now = await this.manager.getMessages();
    if (now.length !== this.before.length + this.added) return;
    if (!this.before.every((message, index) => isSameMessage(now[index], message))) return;
    const restored = now.slice(0, this.before.length);
    if (canReplaceConditionally(this.manager)) await this.manager.replaceMessages(now, restored);
    else await this.manager.setMessages(restored);
    this.added = 0;
  }
}

/**
 * Runs `call` with a turn whose `add`s land in the manager; when the call throws, undoes them and rethrows
 * the call's error, so a failed call stores nothing and the caller can send the same messages again.
 */
export async function runTurn<T>(manager: ContextManager, call: (turn: TurnInFlight) => Promise<T>): Promise<T> {
  const turn = await TurnInFlight.begin(manager);
  try {
    return await call(turn);
  } catch (error) {
    try {
      await turn.undo();
    } catch {
      // The call's own error is what the caller must see; a manager that cannot undo has failed on its own terms.
    }
    throw error;
  }
}
