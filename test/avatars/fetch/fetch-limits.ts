import { avatarConfig } from '../../../functions/avatars/avatar-config';
import type { FetchLimits } from '../../../functions/avatars/fetch';
import { parseAllowHosts } from '../../../functions/avatars/fetch/fetch-settings';

/** What a test changes of the configured limits; allow-list entries as `AVATAR_FETCH_ALLOW_HOSTS` spells them. */
export type LimitChanges = Partial<Omit<FetchLimits, 'allowHosts'>> & { readonly allowHosts?: readonly string[] };

/**
 * The fetch limits as the upload routes pass them (the avatar configuration, read from the
 * environment now), with a test's `changes` over them.
 */
export function fetchLimits(changes: LimitChanges = {}): FetchLimits {
  const { allowHosts, ...limits } = changes;
  return { ...avatarConfig().fetch, ...limits, ...(allowHosts === undefined ? {} : { allowHosts: parseAllowHosts(allowHosts) }) };
}
