// The embedded store: one append-only JSONL journal per session, `<directory>/<sessionId>.jsonl`.
import { constants } from "node:fs";
import { mkdir, open, rm, type FileHandle } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ContextHistoryConflictError, type Message } from "@ctxkit/core";
import { misusedStore, type ReplaceExpectation, WriteQueue } from "@ctxkit/core/kit";
import { JOURNAL_MODE, rewriteAtomically, rewriteFileFor, syncDirectory } from "./atomic-rewrite.js";
import { ContextClosedError } from "./errors.js";
import { encodeAdd, encodeHeader, encodeState } from "./journal-record.js";
import type { Durability, MessageStore, StateChange, StateSnapshot, StoredSession } from "./message-store.js";
import { mendJournalTail } from "./mend-journal-tail.js";
import { readJournal } from "./read-journal.js";
import { acquireSessionLock, type SessionLock } from "./session-lock.js";
import { assertRegularFileOrAbsent, toAccessError } from "./store-access.js";
import { writeAll } from "./write-all.js";

export interface JsonlFileStoreOptions {
  /** The folder of session files; created when missing. */
  readonly directory: string;
  /** The file name without `.jsonl`; the caller checks that it is a safe file name. */
  readonly sessionId: string;
  /** Default `"batch"`. */
  readonly durability?: Durability;
  /** Take the session's lock file. Default `true`. */
  readonly lock?: boolean;
}

type Phase = "created" | "opened" | "loaded" | "closed";

// Appends never follow a symbolic link: a link planted at the journal's name cannot redirect a conversation.
const APPEND_FLAGS = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

export class JsonlFileStore implements MessageStore {
  readonly sessionId: string;
  readonly location: string;
  readonly durability: Durability;
  private readonly usesLock: boolean;
  /** Appends share a write (and fsync) with those waiting beside them, except under `always` (group commit). */
  private readonly queue: WriteQueue<string>;
  private phase: Phase = "created";
  private lock: SessionLock | undefined;
  private handle: FileHandle | undefined;
  /** The journal was created by this store and the folder entry naming it is not durable yet. */
  private needsDirectorySync = false;
  private closing: Promise<void> | undefined;
  /** Messages in the journal once every write called so far lands: what a conditional replace is checked against. */
  private length = 0;

  constructor(options: JsonlFileStoreOptions) {
    this.sessionId = options.sessionId;
    this.location = join(resolve(options.directory), `${options.sessionId}.jsonl`);
    this.durability = options.durability ?? "batch";
    this.usesLock = options.lock ?? true;
    this.queue = new WriteQueue<string>({
      commit: async (lines) => {
        await this.write(`${lines.join("\n")}\n`);
        if (this.durability !== "none") await this.handle!.sync();
      },
      grouping: this.durability === "always" ? "none" : "turn",
    });
  }

  async open(): Promise<void> {
    if (this.phase !== "created")
      throw misusedStore("JsonlFileStore.open", `the store is already ${this.phase}; a store opens once, so make a new one`);
    const folder = dirname(this.location);
    await mkdir(folder, { recursive: true }).catch((error: unknown) => {
      throw toAccessError(error, folder);
    });
    await assertRegularFileOrAbsent(this.location);
    if (this.usesLock) {
      this.lock = await acquireSessionLock(`${this.location}.lock`, this.location).catch((error: unknown) => {
        throw toAccessError(error, folder);
      });
    }
    this.phase = "opened";
    try {
      // A crash mid-rewrite can leave the staged file (removed, a link itself rather than its target); the journal is whole either way.
      await rm(rewriteFileFor(this.location), { force: true });
    } catch (error) {
      await this.close();
      throw toAccessError(error, folder);
    }
  }

  async load(): Promise<StoredSession> {
    if (this.phase !== "opened") throw misusedStore("JsonlFileStore.load", `call open() once first (the store is ${this.phase})`);
    const contents = await readJournal(this.location);
    await mendJournalTail(this.location, contents);
    this.needsDirectorySync = !contents.exists;
    this.phase = "loaded";
    this.length = contents.messages.length;
    const times = contents.lastAddedAt === undefined ? {} : { lastAddedAt: contents.lastAddedAt };
    return { messages: contents.messages, state: contents.state, droppedBytes: contents.droppedBytes, ...times };
  }

  append(message: Message): Promise<void> {
    return this.whenWritable(() => {
      this.length += 1;
      // The time goes in the message's own line: one write, and read back after a restart.
      return this.queue.append(encodeAdd(message, Date.now()));
    });
  }

  writeState(change: StateChange): Promise<void> {
    return this.whenWritable(() => this.queue.append(encodeState(change)));
  }

  replace(messages: readonly Message[], state: StateSnapshot, expected?: ReplaceExpectation): Promise<void> {
    // One writer (the lock), whose writes land in call order: the history now is the one this rewrite replaces.
    if (expected !== undefined && expected.length !== this.length && this.phase === "loaded")
      return Promise.reject(new ContextHistoryConflictError(this.location, expected.length));
    return this.rewrite("set", messages.slice(), state);
  }

  clear(state: StateSnapshot): Promise<void> {
    return this.rewrite("clear", [], state);
  }

  /** Waits for every write, makes them durable in every mode, then releases the lock. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private rewrite(reason: "set" | "clear", messages: readonly Message[], state: StateSnapshot): Promise<void> {
    return this.whenWritable(() => {
      const header = encodeHeader({ sessionId: this.sessionId, rewrittenAt: new Date().toISOString(), reason });
      // State values may change after this call, so they are encoded now; messages are frozen.
      const stateLines = [...state].flatMap(([strategy, values]) =>
        [...values].map(([key, value]) => encodeState({ strategy, key, value })),
      );
      const lines = function* (): Generator<string> {
        yield header;
        yield* stateLines;
        for (const message of messages) yield encodeAdd(message);
      };
      this.length = messages.length;
      return this.queue.exclusive(async () => {
        await rewriteAtomically(this.location, lines());
        // The append handle still points at the replaced file; the next append opens the new one.
        const replaced = this.handle;
        this.handle = undefined;
        this.needsDirectorySync = false;
        await replaced?.close();
      });
    });
  }

  private whenWritable(write: () => Promise<void>): Promise<void> {
    if (this.phase === "loaded" && this.closing === undefined) return write();
    if (this.closing !== undefined || this.phase === "closed") return Promise.reject(new ContextClosedError(this.location, "closed"));
    return Promise.reject(misusedStore("JsonlFileStore", `call open() and load() before writing (the store is ${this.phase})`));
  }

  private async write(text: string): Promise<void> {
    if (this.handle === undefined) {
      this.handle = await open(this.location, APPEND_FLAGS, JOURNAL_MODE).catch((error: unknown) => {
        throw toAccessError(error, this.location);
      });
      // A new file is only durable once its folder entry is; under `none` that waits for close().
      if (this.needsDirectorySync && this.durability !== "none") await this.syncNewFile();
    }
    await writeAll(this.handle, text);
  }

  private async syncNewFile(): Promise<void> {
    await syncDirectory(dirname(this.location));
    this.needsDirectorySync = false;
  }

  private async shutdown(): Promise<void> {
    try {
      await this.queue.settled();
      if (this.handle !== undefined && this.queue.failure === undefined) {
        await this.handle.sync();
        if (this.needsDirectorySync) await this.syncNewFile();
      }
    } finally {
      const handle = this.handle;
      this.handle = undefined;
      this.phase = "closed";
      try {
        await handle?.close();
      } finally {
        await this.lock?.release();
      }
    }
  }
}
