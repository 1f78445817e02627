// Values a fresh process may never need (the schemas of options the default path does not read) are built when first
// asked for, not while the package is imported: every schema object costs a cold start some CPU.

/** A function that returns `build()`'s value, building it on its first call and returning the same value after. */
export function buildOnFirstUse<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
