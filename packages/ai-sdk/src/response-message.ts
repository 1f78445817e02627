// A model's response content as the assistant message the AI SDK itself records for the step.
import type { AssistantModelMessage, JSONValue } from "ai";
import type { ProviderOptions } from "./ai-sdk-hints.js";
import type { ResponseContent } from "./language-model-types.js";

type AssistantPart = Exclude<AssistantModelMessage["content"], string>[number];

function parseInput(input: string): unknown {
  try {
    return JSON.parse(input);
  } catch {
    // The AI SDK records an unparsable call's input as `{}`; so do we, so the echo matches.
    return {};
  }
}

function withMetadata<T extends object>(part: T, metadata: ProviderOptions | undefined): T {
  return metadata === undefined ? part : { ...part, providerOptions: metadata };
}

/**
 * Mirrors the AI SDK's own conversion (`toResponseMessages`): sources and empty texts are left out, metadata
 * becomes `providerOptions`, and only provider-executed results stay in the assistant message (the SDK puts
 * the results of the tools it runs in the tool message of the next prompt).
 */
export function toResponseMessage(content: readonly ResponseContent[]): AssistantModelMessage | undefined {
  const parts: AssistantPart[] = [];
  for (const part of content) {
    switch (part.type) {
      case "text":
        if (part.text.length > 0) parts.push(withMetadata({ type: "text", text: part.text }, part.providerMetadata));
        break;
      case "reasoning":
        parts.push(withMetadata({ type: "reasoning", text: part.text }, part.providerMetadata));
        break;
      case "file":
        parts.push(withMetadata({ type: "file", data: part.data, mediaType: part.mediaType }, part.providerMetadata));
        break;
      case "tool-call":
        parts.push(
          withMetadata(
            {
              type: "tool-call",
              toolCallId: part.toolCallId,
              toolName: part.toolName,
              input: parseInput(part.input),
              ...(part.providerExecuted === true ? { providerExecuted: true } : {}),
            },
            part.providerMetadata,
          ),
        );
        break;
      case "tool-result": {
        const output =
          part.isError === true
            ? { type: "error-json" as const, value: part.result as JSONValue }
            : { type: "json" as const, value: part.result as JSONValue };
        parts.push(
          withMetadata({ type: "tool-result", toolCallId: part.toolCallId, toolName: part.toolName, output }, part.providerMetadata),
        );
        break;
      }
      default:
        // Sources are response-only; approval requests are not supported by this adapter.
        break;
    }
  }
  return parts.length === 0 ? undefined : { role: "assistant", content: parts };
}
