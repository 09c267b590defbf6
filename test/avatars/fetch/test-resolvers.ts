import type { HostLookup, ResolvedAddress } from '../../../functions/avatars/fetch';

/**
 * Injected DNS resolvers: the fetch tests never ask real DNS, so no query leaves the machine.
 */

/** A resolver that must not be asked: literal addresses need no DNS. */
export const noDns: HostLookup = async (hostname) => {
  throw new Error(`Unexpected DNS lookup of ${hostname}`);
};

/** A resolver with fixed answers, recording the names it was asked for. */
export function resolverOf(answers: Record<string, readonly string[]>): HostLookup & { asked: string[] } {
  const asked: string[] = [];
  const lookup = async (hostname: string): Promise<readonly ResolvedAddress[]> => {
    asked.push(hostname);
    return (answers[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(lookup, { asked });
}

/** A resolver whose first answer is `first` and every later answer `later` (DNS rebinding). */
export function rebindingResolver(first: string, later: string): HostLookup & { calls: () => number } {
  let calls = 0;
  const lookup = async (): Promise<readonly ResolvedAddress[]> => {
    calls += 1;
    return [{ address: calls === 1 ? first : later, family: 4 }];
  };
  return Object.assign(lookup, { calls: () => calls });
}
