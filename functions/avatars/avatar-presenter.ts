import { avatarConfig } from './avatar-config';
import type { AvatarRecord } from './avatar-record';
import type { Avatar } from './schemas';

/** The interface's Avatar for a stored avatar: its URL under the configured public base (CloudFront in AWS). */
export function presentAvatar(avatar: AvatarRecord, enabled: boolean): Avatar {
  return {
    id: avatar.avatarId,
    created: avatar.created,
    enabled,
    provider: avatar.provider,
    url: `${avatarConfig().publicBaseUrl}/${avatar.objectKey}`,
  };
}
