// A fake summarizer that records every request and answers with a short, predictable text.
import type { Message } from "@ctxkit/core";
import type { Summarizer, SummarizerRequest } from "../src/summarizer.js";

export interface RecordedRequest {
  readonly messages: readonly Message[];
  readonly previousSummary: string | undefined;
  readonly instructions: string;
  readonly maxTokens: number | undefined;
}

export interface RecordingSummarizer extends Summarizer {
  readonly requests: RecordedRequest[];
}

/** Answers `summary #N of M messages`, or what `answer` returns; `answer` may throw to simulate a failure. */
export function recordingSummarizer(answer?: (request: SummarizerRequest, call: number) => string | Promise<string>): RecordingSummarizer {
  const requests: RecordedRequest[] = [];
  const summarizer = async (request: SummarizerRequest): Promise<string> => {
    requests.push({
      messages: request.messages,
      previousSummary: request.previousSummary,
      instructions: request.instructions,
      maxTokens: request.maxTokens,
    });
    const call = requests.length;
    return answer === undefined ? `summary #${call} of ${request.messages.length} messages` : answer(request, call);
  };
  return Object.assign(summarizer, { requests });
}
