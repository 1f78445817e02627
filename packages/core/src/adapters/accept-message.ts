// The last gate of every `from…` conversion: what it built must be a valid ctxkit message.
import { describeSchemaIssues } from "../messages/parse-message.js";
import type { Message } from "../messages/message.js";
import { messageSchemaOnFirstUse } from "../messages/message-schema.js";
import type { InputList } from "./input-reader.js";

/**
 * `message`, checked against core's schema. A conversion that read every field it used can still build an
 * invalid message from odd input (two calls with one id, say): that throws the adapter's error for the
 * entry at `index`, never a message `addMessage` would refuse later.
 */
export function acceptMessage<M extends Message>(input: InputList, message: M, index: number): M {
  const result = messageSchemaOnFirstUse().safeParse(message);
  if (result.success) return message;
  const [issue] = describeSchemaIssues(result.error.issues);
  throw input.error(index, issue?.path ?? "", `the converted message would be invalid: ${issue?.message ?? "unknown problem"}`);
}
