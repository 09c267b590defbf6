/** A process-wide value: built on first use, reused by every later (warm) invocation. */
export interface Lazy<T> {
  (): T;
  /** Forget the value, so the next use builds it on the current clients (tests and benches switch databases). */
  reset(): void;
}

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
  return get;
}
