// Anthropic's context-editing results (`context_management.applied_edits`): kept verbatim, and counted back into the usage.
import type { Message, ProviderUsage } from "@ctxkit/core";

export type AppliedEdit = Record<string, unknown> & { type: string; cleared_input_tokens?: number };

/** The edits the server applied to this request's input, as the response reports them; empty when none. */
export function appliedEditsOf(response: unknown): AppliedEdit[] {
  const management = (response as { context_management?: { applied_edits?: unknown } | null }).context_management;
  return Array.isArray(management?.applied_edits) ? (management.applied_edits as AppliedEdit[]) : [];
}

/**
 * The edits, verbatim, on the response's last message (`metadata.anthropic.appliedEdits`): they describe what the
 * server cleared from the request the manager sent, and metadata never reaches the provider.
 */
export function withAppliedEdits(messages: Message[], edits: readonly AppliedEdit[]): Message[] {
  if (edits.length === 0 || messages.length === 0) return messages;
  const last = messages.at(-1)!;
  const anthropic = { ...(last.metadata?.["anthropic"] as Record<string, unknown> | undefined), appliedEdits: edits };
  return [...messages.slice(0, -1), { ...last, metadata: { ...last.metadata, anthropic } } as Message];
}

/** The server counted the input after its edits; the manager sent it before them, so the cleared tokens go back in. */
export function withClearedTokens(usage: ProviderUsage | undefined, edits: readonly AppliedEdit[]): ProviderUsage | undefined {
  if (usage === undefined) return undefined;
  const cleared = edits.reduce((total, edit) => total + (typeof edit.cleared_input_tokens === "number" ? edit.cleared_input_tokens : 0), 0);
  return cleared === 0 ? usage : { ...usage, inputTokens: usage.inputTokens + cleared };
}
