// The OpenAI API's error replies, as its servers word them.
import type { Reply } from "./loopback-server.js";

export function openAIError(
  status: number,
  message: string,
  param: string | null = null,
  code: string | null = null,
  type = "invalid_request_error",
): Reply {
  return { status, body: { error: { message, type, param, code } } };
}

export function unrecognizedArgument(key: string): Reply {
  return openAIError(400, `Unrecognized request argument supplied: ${key}`);
}

export function unexpectedProperty(key: string, where: string): Reply {
  return openAIError(400, `Additional properties are not allowed ('${key}' was unexpected) - '${where}'`);
}

/** Returns the first key of `value` that is not in `allowed`. */
export function unknownKey(value: object, allowed: ReadonlySet<string>): string | undefined {
  return Object.keys(value).find((key) => !allowed.has(key));
}

let counter = 0;
/** An id with a prefix and 24 base-62 characters, as OpenAI's look. */
export function openAIId(prefix: string): string {
  counter += 1;
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let value = counter * 7_919 + 104_729;
  let id = "";
  for (let index = 0; index < 24; index += 1) {
    id += alphabet[value % 62];
    value = Math.floor(value / 62) + index * 31 + counter;
  }
  return `${prefix}${id}`;
}
