// A stored session opened through its store's manager: its history, its stored compaction receipts and explainView.
import { access } from "node:fs/promises";
import { basename, dirname } from "node:path";
import type { ContextManager, Message } from "@ctxkit/core";
import { canExplainView, canListCompactions, type CompactionReceipt, type MessageStore, type ViewExplanation } from "@ctxkit/core/kit";
import { type ConfigObject, managerFromConfig } from "../replay/configurations.js";
import { UsageError } from "../usage-error.js";

export type StoredSource =
  | { readonly kind: "journal"; readonly file: string }
  | { readonly kind: "postgres" | "redis"; readonly url: string; readonly session: string };

export interface StoredSession {
  readonly history: Message[];
  /** Every receipt the session keeps, oldest first; those kept as figures only have no fates. */
  readonly receipts: CompactionReceipt[];
  readonly explanation?: ViewExplanation;
  /** The budget explained: the one asked for, else the newest receipt's, else the manager's own. */
  readonly budget: number | undefined;
}

/** The URL as the page and errors may show it: without a password or query (which may carry one). */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== "") parsed.password = "***";
    parsed.search = "";
    return parsed.toString();
  } catch {
    return "(a URL that does not parse)";
  }
}

async function openStore(source: StoredSource): Promise<MessageStore> {
  if (source.kind === "journal") {
    if (!source.file.endsWith(".jsonl"))
      throw new UsageError("SOURCE", `${source.file} is not a journal's name: a session's journal is <session>.jsonl`);
    // A missing journal would be created empty by the store: say so instead.
    await access(source.file).catch(() => {
      throw new UsageError("SOURCE", `${source.file} does not exist: give the journal of a session (<folder>/<session>.jsonl)`);
    });
    const { JsonlFileStore } = await import("@ctxkit/context-persistent");
    // The lock is taken as a writer takes it: an agent still writing the journal makes this a ContextLockedError
    // rather than a read of a line it is writing.
    return new JsonlFileStore({ directory: dirname(source.file), sessionId: basename(source.file, ".jsonl") });
  }
  if (source.kind === "postgres") {
    const { PostgresMessageStore } = await import("@ctxkit/context-postgres");
    return new PostgresMessageStore({ connectionString: source.url, sessionId: source.session });
  }
  const { RedisMessageStore } = await import("@ctxkit/context-redis");
  return new RedisMessageStore({ url: source.url, sessionId: source.session });
}

async function receiptsOf(manager: ContextManager): Promise<CompactionReceipt[]> {
  if (!canListCompactions(manager)) return [];
  const receipts: CompactionReceipt[] = [];
  for (const summary of await manager.listCompactions())
    receipts.push((await manager.getCompaction(summary.id)) ?? { ...summary, fates: [] });
  return receipts;
}

/** Opens the session with `config` (a preset's or a config file's), reads it, and closes it; it writes nothing of its own. */
export async function readStoredSession(source: StoredSource, config: ConfigObject, budget: number | undefined): Promise<StoredSession> {
  const manager = await managerFromConfig(config, () => undefined, await openStore(source));
  try {
    const history = await manager.getMessages();
    const receipts = await receiptsOf(manager);
    const explained = budget ?? receipts.at(-1)?.budget;
    const explanation = canExplainView(manager)
      ? await manager.explainView(explained === undefined ? {} : { tokenBudget: explained })
      : undefined;
    return {
      history,
      receipts,
      ...(explanation === undefined ? {} : { explanation }),
      budget: explained ?? explanation?.budget,
    };
  } finally {
    await (manager as { close?: () => Promise<void> }).close?.();
  }
}
