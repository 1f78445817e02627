// The one error every adapter's `from…` function throws on input it cannot read.
import { ContextError } from "../errors.js";

export interface AdapterInputProblem {
  /** The converting function, e.g. `fromAnthropicMessages`. */
  readonly adapter: string;
  /** The entry of the input list, when the problem is inside one. */
  readonly index?: number;
  /** Dotted path inside the entry (`content.2.id`); empty for the entry itself. */
  readonly field: string;
  /** What is wrong there. */
  readonly problem: string;
  /** What to do about it. */
  readonly fix: string;
}

/**
 * Input an adapter could not convert: a `null` entry, a missing field, a value of the wrong type, a role or
 * block type the adapter does not know. Nothing was converted: the call returns no partial result.
 */
export class AdapterInputError extends ContextError {
  readonly adapter: string;
  readonly index: number | undefined;
  readonly field: string;
  readonly problem: string;

  constructor(details: AdapterInputProblem, options?: { cause?: unknown }) {
    const entry = details.index === undefined ? "the input" : `entry ${details.index}`;
    const where = details.field === "" ? entry : `${entry}, field "${details.field}"`;
    super("CONTEXT_ADAPTER_INPUT", `${details.adapter}: ${where}: ${details.problem}. ${details.fix}`, options);
    this.adapter = details.adapter;
    this.index = details.index;
    this.field = details.field;
    this.problem = details.problem;
  }
}
