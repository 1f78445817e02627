// The error hierarchy: one class per failure a caller can act on, each with a stable `code`.

export interface ErrorIssue {
  /** Dotted path of the offending field, e.g. `tool_calls.0.function.name`; empty for the whole value. */
  readonly path: string;
  readonly message: string;
}

/**
 * Every ctxkit code, one class each. The store codes belong to the store errors in `store/store-errors.ts`;
 * a third-party module may add its own code on its own error class.
 */
export type ContextErrorCode =
  | "CONTEXT_VALIDATION"
  | "CONTEXT_REQUEST"
  | "CONTEXT_BUDGET"
  | "CONTEXT_CONFIG"
  | "MODULE_LOAD"
  | "MOUNT_POINT"
  | "CONTEXT_CLOSED"
  | "CONTEXT_COUNTER"
  | "CONTEXT_TIMEOUT"
  | "CONTEXT_STATE_CONFLICT"
  | "CONTEXT_HISTORY_CONFLICT"
  | "CONTEXT_OVERFLOW"
  | "CONTEXT_STREAM"
  | "CONTEXT_ADAPTER_INPUT"
  | "CONTEXT_LOCKED"
  | "CONTEXT_STORE_ACCESS"
  | "CONTEXT_STORE_CORRUPT"
  | "CONTEXT_STORE_UNAVAILABLE"
  | "CONTEXT_ARGUMENT"
  | "CONTEXT_SUMMARIZER"
  | "CONTEXT_UNDO";

export class ContextError extends Error {
  /** Stable: match on it, not on the message. */
  readonly code: ContextErrorCode | (string & {});

  constructor(code: ContextErrorCode | (string & {}), message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
}

function describeIssues(issues: readonly ErrorIssue[]): string {
  return issues.map((issue) => `${issue.path || "(root)"}: ${issue.message}`).join("; ");
}

/** A message was rejected; nothing was stored. */
export class ContextValidationError extends ContextError {
  readonly issues: readonly ErrorIssue[];

  constructor(issues: readonly ErrorIssue[], options?: { cause?: unknown; index?: number }) {
    const where = options?.index === undefined ? "message" : `message at index ${options.index}`;
    super("CONTEXT_VALIDATION", `Invalid ${where}: ${describeIssues(issues)}`, options);
    this.issues = issues;
  }
}

/**
 * A request's options (its budget, its provider's info, its tools) cannot give a budget to fit: each
 * bad field is named. Nothing was changed, and no view was built.
 */
export class ContextRequestError extends ContextError {
  readonly issues: readonly ErrorIssue[];

  constructor(issues: readonly ErrorIssue[], options?: { cause?: unknown }) {
    super("CONTEXT_REQUEST", `Invalid request options: ${describeIssues(issues)}`, options);
    this.issues = issues;
  }
}

/** A token counter returned something that is not a count: a whole number of tokens ≥ 0. */
export class ContextCounterError extends ContextError {
  readonly counter: string;
  readonly returned: unknown;

  constructor(counter: string, returned: unknown) {
    super(
      "CONTEXT_COUNTER",
      `The token counter "${counter}" returned ${describeValue(returned)}, not a whole number of tokens ≥ 0. ` +
        `Fix its count() so every text gets a finite count, or use "o200k_base", "cl100k_base" or "estimate".`,
    );
    this.counter = counter;
    this.returned = returned;
  }
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? `the string ${JSON.stringify(value)}` : String(value);
}

/** A strategy or a summarizer did not settle in time: its work is abandoned, and the request goes on without it. */
export class ContextTimeoutError extends ContextError {
  /** What timed out: a strategy's name, or `summarizer`. */
  readonly operation: string;
  readonly timeoutMs: number;

  constructor(operation: string, timeoutMs: number) {
    super(
      "CONTEXT_TIMEOUT",
      `${operation} did not finish within ${timeoutMs} ms; the request went on without it. ` +
        `Raise the timeout (strategyTimeoutMs, or the summary strategy's timeoutMs) if it is legitimately slow.`,
    );
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }
}

/** Even the minimal view (system, developer, pinned, latest user turn) does not fit the budget. */
export class ContextBudgetError extends ContextError {
  readonly budget: number;
  readonly required: number;

  constructor(budget: number, required: number) {
    super(
      "CONTEXT_BUDGET",
      `The minimal view needs ${required} tokens but the budget is ${budget}. ` +
        `Raise the budget (maxTokens, or a provider with a larger window) or shorten the system prompt, pinned messages or latest turn.`,
    );
    this.budget = budget;
    this.required = required;
  }
}

/** A module's config was rejected; every bad key is listed at once. */
export class ContextConfigError extends ContextError {
  readonly issues: readonly ErrorIssue[];
  readonly module: string;

  constructor(module: string, issues: readonly ErrorIssue[]) {
    super("CONTEXT_CONFIG", `Invalid config for ${module}: ${describeIssues(issues)}`);
    this.module = module;
    this.issues = issues;
  }
}

/** A module could not be imported, or its exports do not have the module shape. */
export class ModuleLoadError extends ContextError {
  readonly specifier: string;
  readonly missing: readonly string[];

  constructor(specifier: string, missing: readonly string[], options?: { cause?: unknown; reason?: string }) {
    const reason = options?.reason ?? `missing or invalid export(s): ${missing.join(", ")}`;
    super("MODULE_LOAD", `Cannot load module "${specifier}": ${reason}`, options);
    this.specifier = specifier;
    this.missing = missing;
  }
}

/** A coordinator was asked for a mount point it does not have. */
export class MountPointError extends ContextError {
  readonly point: string;

  constructor(point: string, known: readonly string[]) {
    super("MOUNT_POINT", `Unknown mount point "${point}". Known mount points: ${known.join(", ")}.`);
    this.point = point;
  }
}

export type ClosedReason = "closed" | "write_failed";

/**
 * The manager no longer accepts operations: it was closed, or a write to its store failed, so its
 * memory may be ahead of the store. Either way the cure is to open the session again, from what is stored.
 */
export class ContextClosedError extends ContextError {
  /** Where the session lives (a journal file, a table). */
  readonly location: string;
  readonly reason: ClosedReason;

  constructor(location: string, reason: ClosedReason, options?: { cause?: unknown }) {
    const what =
      reason === "closed"
        ? `The session ${location} is closed.`
        : `The session ${location} stopped because a write to it failed (${describeCause(options?.cause)}); ` +
          `messages may be in memory that are not stored.`;
    super("CONTEXT_CLOSED", `${what} Open it again to continue from what is stored.`, options);
    this.location = location;
    this.reason = reason;
  }

  /** The journal file, for a file store: the same as `location`. */
  get file(): string {
    return this.location;
  }
}

function describeCause(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A strategy's state key was changed by another writer of a shared session since this store last
 * loaded or synced it, so this write was refused rather than overwrite a value it never saw. Nothing
 * was written: sync (any read does) to take the other writer's value, then retry.
 */
export class ContextStateConflictError extends ContextError {
  readonly strategy: string;
  readonly key: string;

  constructor(strategy: string, key: string, options?: { cause?: unknown }) {
    super(
      "CONTEXT_STATE_CONFLICT",
      `The state "${key}" of strategy "${strategy}" was changed by another writer since this store last read it; nothing was written. ` +
        `Sync the session (any read does) to take the other writer's value, then retry.`,
      options,
    );
    this.strategy = strategy;
    this.key = key;
  }
}

/**
 * An edit of the history made on a caller's behalf (`replaceMessages`, a store's `replace` with an
 * expectation) found the history changed since the caller read it: another writer of a shared session,
 * or another call, appended, replaced or cleared it. Nothing was written and the store stays usable:
 * read the history again and apply the edit to what it holds now.
 */
export class ContextHistoryConflictError extends ContextError {
  /** Where the session lives (a journal file, a table and session). */
  readonly location: string;
  /** How many messages the history held when the caller read it. */
  readonly expectedLength: number;

  constructor(location: string, expectedLength: number, options?: { cause?: unknown }) {
    super(
      "CONTEXT_HISTORY_CONFLICT",
      `The history of ${location} changed since it was read (${expectedLength} messages then); nothing was written. ` +
        `Read the history again (getMessages) and apply the edit to what it holds now.`,
      options,
    );
    this.location = location;
    this.expectedLength = expectedLength;
  }
}

/**
 * A public call was given an argument it cannot use (a handler that is not a function, an unknown
 * encoding, a value that cannot be persisted), or was made on an object not ready for it (a store
 * opened twice, written before it was loaded): each bad field is named, `this` for the object itself.
 * The call changed nothing.
 */
export class ContextArgumentError extends ContextError {
  /** The call that refused, e.g. `hooks.register`. */
  readonly operation: string;
  readonly issues: readonly ErrorIssue[];

  constructor(operation: string, issues: readonly ErrorIssue[], options?: { cause?: unknown }) {
    super("CONTEXT_ARGUMENT", `Invalid argument to ${operation}: ${describeIssues(issues)}`, options);
    this.operation = operation;
    this.issues = issues;
  }
}

/**
 * A summarizer's model or provider failed or answered without text (no `choices`, an empty message,
 * no provider mounted under the name). The request goes on without a summary; fix the model, its
 * client or the provider's name.
 */
export class ContextSummarizerError extends ContextError {
  /** The model or provider that was asked, e.g. `gpt-4o-mini` or `provider "llm"`. */
  readonly summarizer: string;

  constructor(summarizer: string, problem: string, options?: { cause?: unknown }) {
    super("CONTEXT_SUMMARIZER", `The summarizer ${summarizer} ${problem}`, options);
    this.summarizer = summarizer;
  }
}

/** Why `undoCompaction` refused: no such receipt, undone already, or the state it replaced is no longer kept. */
export type UndoRefusal = "unknown" | "already-undone" | "state-dropped";

/** `undoCompaction(id)` could not undo: nothing was changed. The message says which receipt and what to do. */
export class ContextUndoError extends ContextError {
  /** The receipt id the caller named. */
  readonly receiptId: string;
  readonly reason: UndoRefusal;

  constructor(receiptId: string, reason: UndoRefusal, detail: string, options?: { cause?: unknown }) {
    super("CONTEXT_UNDO", `Cannot undo compaction "${receiptId}": ${detail}`, options);
    this.receiptId = receiptId;
    this.reason = reason;
  }
}
