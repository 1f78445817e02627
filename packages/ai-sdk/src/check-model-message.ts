// Checks that an AI SDK message has every field `fromModelMessages` reads, with its type, before converting it.
import type { InputRecord } from "@ctxkit/core/kit";

const OUTPUT_TYPES = ["text", "error-text", "json", "error-json", "content", "execution-denied"] as const;

/** Data the AI SDK takes inline: base64 or a URL as a string, bytes, or a `URL`. */
function checkData(part: InputRecord, key: string): void {
  const value = part.value[key];
  if (typeof value === "string" || value instanceof URL || value instanceof Uint8Array || value instanceof ArrayBuffer) return;
  part.fail("expected base64 or a URL string, bytes, or a URL", key);
}

function checkProviderOptions(value: InputRecord): void {
  value.optionalRecord("providerOptions");
}

function checkPart(part: InputRecord): void {
  checkProviderOptions(part);
  switch (part.string("type")) {
    case "text":
    case "reasoning":
      part.string("text");
      return;
    case "image":
      checkData(part, "image");
      part.optionalString("mediaType");
      return;
    case "file":
      checkData(part, "data");
      part.string("mediaType");
      part.optionalString("filename");
      return;
    case "tool-call":
      part.nonEmptyString("toolCallId");
      part.nonEmptyString("toolName");
      part.optionalBoolean("providerExecuted");
      return;
    case "tool-result":
      checkToolResult(part);
      return;
  }
}

function checkToolResult(part: InputRecord): void {
  part.nonEmptyString("toolCallId");
  part.string("toolName");
  const output = part.record("output");
  checkProviderOptions(output);
  switch (output.oneOf("type", OUTPUT_TYPES)) {
    case "text":
    case "error-text":
      output.string("value");
      return;
    case "content":
      for (const item of output.records("value")) {
        switch (item.string("type")) {
          case "text":
            item.string("text");
            break;
          case "image-data":
            item.string("data");
            item.string("mediaType");
            break;
          case "image-url":
            item.string("url");
            break;
        }
      }
      return;
    case "execution-denied":
      output.optionalString("reason");
      return;
    default:
      return;
  }
}

/** Throws the adapter's `AdapterInputError` for the first field `fromModelMessages` could not read. */
export function checkModelMessage(message: InputRecord): void {
  checkProviderOptions(message);
  const role = message.oneOf("role", ["system", "user", "assistant", "tool"]);
  if (role === "system") {
    message.string("content");
    return;
  }
  if (role === "tool") {
    const parts = message.records("content");
    if (parts.length === 0) message.fail("a tool message needs at least one tool-result part", "content");
    parts.forEach((part) => {
      if (part.string("type") !== "tool-result")
        part.fail(`"${String(part.value.type)}" is not supported: @ctxkit/ai-sdk keeps tool results, not approvals`, "type");
      checkPart(part);
    });
    return;
  }
  const content = message.stringOrRecords("content");
  if (typeof content !== "string") content.forEach(checkPart);
}
