// One check of the store suite: a title, and a body that throws (an assertion) when the store breaks the contract.

export interface StoreCheck {
  readonly title: string;
  /** Why the check cannot run on this backend (a hook it does not offer); then `run` is not called. */
  readonly skipped?: string;
  /** Longest the check may take, when longer than the runner's default. */
  readonly timeoutMs?: number;
  run(): Promise<void>;
}
