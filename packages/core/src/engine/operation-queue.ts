// Serializes a manager's operations: each starts after the previous one settles, whatever its outcome.

export class OperationQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(operation: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(operation, operation);
    // A failed operation rejects its own caller only; the queue goes on.
    this.tail = result.catch(() => undefined);
    return result;
  }
}
