import { inLambda } from './config/define-config';

/** A process-wide value: built once, reused by every later (warm) invocation. */
export interface Lazy<T> {
  (): T;
  /** Forget the value, so the next use builds it on the current clients (tests and benches switch databases). */
  reset(): void;
}

const everyLazy = new Set<Lazy<unknown>>();

/**
 * Wrap `create` so that it runs once. In Lambda it runs at once, when the handler module loads: a
 * function composes its clients, repositories and services at cold start, in the init phase, as
 * AWS advises (https://docs.aws.amazon.com/lambda/latest/dg/best-practices.html: initialize SDK
 * clients outside the handler), and its first request pays for none of it. Everywhere else (the
 * local gateway, `invoke`, tests, benches, which load every handler and switch back-ends) it runs
 * on first use, and {@link Lazy.reset} forgets it. Call sites mark the call `@__PURE__`, so that a
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
  if (inLambda()) get();
  return get;
}

/**
 * Forget every process-wide value, so that the next use builds it anew: for tools that switch one
 * process between back-ends (benchmarks), never for a deployed function.
 */
export function resetEveryLazy(): void {
  for (const value of everyLazy) value.reset();
}
