// The checks `describeAdapter` and `runAdapterConformance` run, each a property over generated histories.
import type { Message } from "@ctxkit/core";
import { checkToolPairs, textOfContent } from "@ctxkit/core/kit";
import type fc from "fast-check";
import { isDeepEqual } from "../checks/deep-equal.js";
import { describeError, expectThat, preview, PropertyViolation } from "../checks/violation.js";
import { MALFORMED_INPUTS, RICH_HISTORY, TOOL_ERROR_HISTORY } from "./adapter-examples.js";
import type { AdapterSubject } from "./adapter-subject.js";
import { canonicalHistory } from "./canonical-history.js";
import { expectValidOrRefused } from "./expect-valid-or-refused.js";
import { malformedInputArbitrary } from "./malformed-input-arbitrary.js";
import { portableHistoryArbitrary } from "./portable-history-arbitrary.js";

export interface AdapterCheck {
  readonly name: string;
  readonly description: string;
  readonly arbitrary: (adapter: AdapterSubject) => fc.Arbitrary<unknown>;
  readonly examples: readonly unknown[];
  readonly run: (adapter: AdapterSubject, input: unknown) => void;
}

/** A history with a user turn to send: no provider takes a request with nothing in it. */
function sendableHistoryArbitrary(): fc.Arbitrary<Message[]> {
  return portableHistoryArbitrary({ maxSegments: 6 }).filter((history) =>
    history.some((message) => message.role === "user" && textOfContent(message.content).trim() !== ""),
  );
}

function send(adapter: AdapterSubject, history: Message[]): unknown {
  try {
    return adapter.toProvider(structuredClone(history));
  } catch (error) {
    throw new PropertyViolation(`toProvider threw on a valid history: ${describeError(error)}`);
  }
}

/** The payload as it would travel: through JSON, so nothing but data survives. */
function overTheWire(payload: unknown): unknown {
  return JSON.parse(JSON.stringify(payload ?? null));
}

function findKey(value: unknown, key: string, path = ""): string | undefined {
  if (Array.isArray(value)) return value.map((item, index) => findKey(item, key, `${path}.${index}`)).find((found) => found !== undefined);
  if (typeof value !== "object" || value === null) return undefined;
  for (const [name, item] of Object.entries(value)) {
    if (name === key) return `${path}.${name}`.slice(1);
    const found = findKey(item, key, `${path}.${name}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

export const ADAPTER_CHECKS: readonly AdapterCheck[] = [
  {
    name: "round-trip",
    description:
      "toProvider then fromProvider gives back the same history: every text, image, tool call (id, name, arguments) and tool result (with its error flag where the provider carries one), in order, modulo the documented normalizations.",
    arbitrary: sendableHistoryArbitrary,
    examples: [RICH_HISTORY, TOOL_ERROR_HISTORY],
    run(adapter, input) {
      const history = input as Message[];
      const back = adapter.fromProvider(overTheWire(send(adapter, history)));
      const options = { toolErrors: adapter.keepsToolErrors === true };
      const expected = canonicalHistory(adapter.normalize?.(structuredClone(history)) ?? history, options);
      const actual = canonicalHistory(back, options);
      expectThat(
        isDeepEqual(actual, expected),
        () => `the round trip changed the history:\nexpected ${preview(expected, 600)}\nactual   ${preview(actual, 600)}`,
      );
    },
  },
  {
    name: "tool-pairs",
    description: "Every tool call is answered right after it, before the next message, in the payload and in what fromProvider gives back.",
    arbitrary: sendableHistoryArbitrary,
    examples: [RICH_HISTORY],
    run(adapter, input) {
      const back = adapter.fromProvider(overTheWire(send(adapter, input as Message[])));
      const violations = checkToolPairs(back);
      expectThat(violations.length === 0, () => `tool pairs broken after the round trip: ${preview(violations, 400)}`);
    },
  },
  {
    name: "provider-rules",
    description: "What toProvider sends follows the provider's request rules (the adapter's validate) and carries no ctxkit metadata.",
    arbitrary: sendableHistoryArbitrary,
    examples: [RICH_HISTORY],
    run(adapter, input) {
      const payload = send(adapter, input as Message[]);
      const leak = findKey(overTheWire(payload), "metadata");
      expectThat(leak === undefined, () => `the payload carries ctxkit metadata at ${leak}`);
      const problems = adapter.validate?.(payload) ?? [];
      expectThat(problems.length === 0, () => `the payload breaks the provider's rules: ${problems.join("; ")}`);
    },
  },
  {
    name: "malformed-input",
    description:
      "fromProvider given junk or a corrupted payload returns valid ctxkit messages or throws AdapterInputError, never a TypeError.",
    arbitrary: (adapter) =>
      malformedInputArbitrary(
        sendableHistoryArbitrary().map((history) => {
          try {
            return adapter.toProvider(history);
          } catch {
            return [];
          }
        }),
      ),
    examples: MALFORMED_INPUTS,
    run(adapter, input) {
      expectValidOrRefused((payload) => adapter.fromProvider(payload), input);
    },
  },
];
