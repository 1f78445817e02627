// How a property says what went wrong: a violation is a failed expectation, not a crash of the kit.
export class PropertyViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PropertyViolation";
  }
}

export function expectThat(condition: boolean, message: string | (() => string)): asserts condition {
  if (!condition) throw new PropertyViolation(typeof message === "function" ? message() : message);
}

/** A short, single-line rendering of a value for violation messages. */
export function preview(value: unknown, maxLength = 160): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return preview(error);
}
