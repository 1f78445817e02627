// Ids for Gemini function calls that came without one: the Gemini API often leaves `functionCall.id` out, and a
// ctxkit tool call needs an id its result can name.
//
// A call with no id gets `gemini-call-<k>-<name>`, where k counts the earlier calls of the same name in its turn;
// a response with no id gets the same from its place among the responses of that name in its turn, so the pair
// meets without reading the other turn. The id depends on nothing else, so converting a history twice gives the
// same ids, and `toGeminiContents` sends such a call and its response without an id again, as they came.

const PREFIX = "gemini-call-";

/** The id a call (or a response) named `name` gets when it is the `k`-th of that name in its turn and has none. */
export function functionCallIdFor(name: string, k: number): string {
  return `${PREFIX}${k}-${name}`;
}

/** Whether `id` is the one `functionCallIdFor` gives the `k`-th call named `name`: then Gemini gets no id. */
export function isMintedFunctionCallId(id: string, name: string, k: number): boolean {
  return id === functionCallIdFor(name, k);
}

/** Counts names as they come: the k of each next call (or response) of a turn. */
export class SameNameCounter {
  private readonly counts = new Map<string, number>();

  next(name: string): number {
    const k = this.counts.get(name) ?? 0;
    this.counts.set(name, k + 1);
    return k;
  }
}
