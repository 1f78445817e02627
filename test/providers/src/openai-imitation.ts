// A strict imitation of the OpenAI API on loopback: Chat Completions and Responses.
import { handleChatCompletion } from "./chat-completions-imitation.js";
import { startLoopbackServer, type LoopbackServer } from "./loopback-server.js";
import { openAIError } from "./openai-errors.js";
import type { ProviderCounting } from "./provider-tokens.js";
import { ResponsesImitation } from "./responses-imitation.js";

/** `counting`: how the imitated model counts tokens and how large its window is (default: 1.2× o200k, 8,192). */
export async function startOpenAIImitation(counting?: ProviderCounting): Promise<LoopbackServer> {
  const responses = new ResponsesImitation(counting);
  return startLoopbackServer(
    (path, body, record) => {
      if (path === "/v1/chat/completions") return handleChatCompletion(body, record, counting);
      if (path === "/v1/responses") return responses.create(body, record);
      if (path === "/v1/responses/compact") return responses.compact(body, record);
      return openAIError(404, `Invalid URL (POST ${path})`, null, null);
    },
    () =>
      openAIError(
        400,
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
      ),
  );
}
