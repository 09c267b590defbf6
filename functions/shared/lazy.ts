/** A process-wide value: built on first use, reused by every later (warm) invocation. */
export interface Lazy<T> {
  (): T;
  /** Forget the value, so the next use builds it on the current clients (tests and benches switch databases). */
  reset(): void;
}

const everyLazy = new Set<Lazy<unknown>>();

/**
 * Wrap `create` so that it runs once, on first use. Call sites mark the call `@__PURE__`, so that a
 * bundle whose handler never uses a service drops it and everything it imports.
 */
export function lazy<T>(create: () => T): Lazy<T> {
  let value: { readonly current: T } | undefined;
  const get = (() => {
    value ??= { current: create() };
    return value.current;
  }) as Lazy<T>;
  get.reset = () => {
    value = undefined;
  };
  everyLazy.add(get);
  return get;
}

/**
 * Forget every process-wide value, so that the next use builds it anew: for tools that switch one
 * process between back-ends (benchmarks), never for a deployed function.
 */
export function resetEveryLazy(): void {
  for (const value of everyLazy) value.reset();
}
