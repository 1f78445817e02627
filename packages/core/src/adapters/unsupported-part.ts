// The error every adapter's `to…` function throws for a content part its provider cannot take in that place.
import { ContextValidationError } from "../errors.js";

export interface UnsupportedPart {
  /** The provider's API, e.g. "Anthropic" or "Chat Completions". */
  readonly provider: string;
  /** The message's index in the view. */
  readonly index: number | undefined;
  /** The part's position in the message's content. */
  readonly position: number;
  readonly partType: string;
  /** Where it was, and what that place takes: "a system prompt (text only)". */
  readonly where: string;
}

/** Names the message and the part, and what the place takes, so the caller can convert or drop the part. */
export function unsupportedPartError(details: UnsupportedPart): ContextValidationError {
  return new ContextValidationError(
    [{ path: `content.${details.position}`, message: `${details.provider} takes no "${details.partType}" part in ${details.where}` }],
    details.index === undefined ? {} : { index: details.index },
  );
}
