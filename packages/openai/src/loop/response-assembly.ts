// Responses stream events folded into the Response a non-streamed request returns: the one `response.completed` carries.
import { ContextStreamError } from "@ctxkit/core";
import type { StreamAssembly } from "@ctxkit/core/kit";
import type { Response, ResponseOutputItem, ResponseStreamEvent } from "openai/resources/responses/responses";

const PROVIDER = "OpenAI Responses";

/**
 * Keeps the response of `response.completed` (or `response.incomplete`, which a non-streamed request returns
 * too), whose output items are the ones the deltas built, byte for byte. Should it come without its output,
 * the `response.output_item.done` items stand in, by `output_index`. An `error` or `response.failed` event
 * fails the stream; without a closing event it ended short (the SDK ends a cut or aborted stream quietly).
 */
export function responseAssembly(): StreamAssembly<ResponseStreamEvent, Response> {
  let final: Response | undefined;
  const done = new Map<number, ResponseOutputItem>();
  return {
    add(event) {
      if (event.type === "error")
        throw new ContextStreamError(PROVIDER, `its error event said: ${event.message} (${event.code ?? "no code"})`);
      if (event.type === "response.failed")
        throw new ContextStreamError(PROVIDER, `the response failed: ${event.response.error?.message ?? "no reason given"}`);
      if (event.type === "response.output_item.done") done.set(event.output_index, event.item);
      if (event.type === "response.completed" || event.type === "response.incomplete") final = event.response;
    },
    finish() {
      if (final === undefined) return undefined;
      const output =
        final.output.length > 0 || done.size === 0
          ? final.output
          : [...done.entries()].sort(([left], [right]) => left - right).map(([, item]) => item);
      return { ...final, output, output_text: outputTextOf(output) };
    },
  };
}

/** The SDK's `output_text` of a non-streamed response: every `output_text` part of the output's messages, joined. */
function outputTextOf(output: readonly ResponseOutputItem[]): string {
  return output
    .flatMap((item) => (item.type === "message" ? item.content : []))
    .flatMap((part) => (part.type === "output_text" ? [part.text] : []))
    .join("");
}
