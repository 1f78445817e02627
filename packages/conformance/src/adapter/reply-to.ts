// replyTo: how a scripted provider answers one request, for a reply that may depend on the request (a provider
// that counts more than the manager does, and rejects what passes its window).
import { estimateCounter } from "@ctxkit/core";
import type { ScriptedAnswer, ScriptedReply } from "./adapter-subject.js";

const counter = estimateCounter();

/** Tokens of framing a provider counts per message, beside its text (as core counts a message). */
const PER_MESSAGE = 4;

/**
 * The manager's own estimate of a request in any SDK's shape: every string in it (texts, roles, ids, type
 * tags) and a few tokens for each object that carries a role. The shape's own names add some over the
 * manager's count of the same messages, as a provider's framing would.
 */
export function estimateRequestTokens(request: unknown): number {
  let text = "";
  let messages = 0;
  const visit = (value: unknown): void => {
    if (typeof value === "string") text += `${value} `;
    else if (Array.isArray(value)) for (const item of value) visit(item);
    else if (typeof value === "object" && value !== null) {
      if ("role" in value) messages += 1;
      for (const item of Object.values(value)) visit(item);
    }
  };
  visit(request);
  return counter.count(text) + PER_MESSAGE * messages;
}

/**
 * How the provider answers `request` (the messages sent, in the SDK's shape): as scripted for an answer or a
 * rejection; for a counted reply, rejected as too long when `ratio` × its tokens pass the window, otherwise
 * answered with the count as its usage.
 */
export function replyTo(reply: ScriptedReply, request: unknown): ScriptedAnswer {
  if (reply.kind !== "counted") return reply;
  const tokens = Math.ceil(reply.ratio * estimateRequestTokens(request));
  if (tokens > reply.window) return { kind: "too-long" };
  return { kind: "answer", text: reply.text, usage: { input: tokens, output: 8 } };
}
