// Small readers the provider rule checkers share: each records a problem instead of throwing.

export type Problems = string[];

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Records every key of `value` that is not in `allowed`. */
export function checkKeys(problems: Problems, where: string, value: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(value)) if (!allowed.includes(key)) problems.push(`${where}: unknown key "${key}"`);
}

export function checkString(problems: Problems, where: string, value: unknown, options: { nonEmpty?: boolean } = {}): value is string {
  if (typeof value !== "string") {
    problems.push(`${where}: expected a string`);
    return false;
  }
  if (options.nonEmpty === true && value === "") problems.push(`${where}: must not be empty`);
  return true;
}

/** Every call id of an opening message answered right after it, and every answer to a call of that message. */
export function checkAdjacency(problems: Problems, where: string, callIds: readonly string[], answerIds: readonly string[]): void {
  const calls = new Set(callIds);
  for (const id of answerIds) if (!calls.has(id)) problems.push(`${where}: a result for "${id}", which the call before it did not make`);
  const answers = new Set(answerIds);
  for (const id of callIds) if (!answers.has(id)) problems.push(`${where}: the call "${id}" has no result right after it`);
}

export interface PartRules {
  readonly role: string;
  /** The part types each role takes. */
  readonly partsByRole: Readonly<Record<string, readonly string[]>>;
  /** The keys each part type takes. */
  readonly partKeys: Readonly<Record<string, readonly string[]>>;
}

/** Records why `part` is not a typed part its role takes, with only its type's keys; true when it is one. */
export function isKnownPart(
  problems: Problems,
  where: string,
  part: unknown,
  rules: PartRules,
): part is Record<string, unknown> & { type: string } {
  if (!isObject(part) || typeof part.type !== "string") {
    problems.push(`${where}: a part must be an object with a string type`);
    return false;
  }
  if (!(rules.partsByRole[rules.role] ?? []).includes(part.type)) {
    problems.push(`${where}: a ${rules.role} message takes no "${part.type}" part`);
    return false;
  }
  checkKeys(problems, where, part, rules.partKeys[part.type] ?? []);
  return true;
}
