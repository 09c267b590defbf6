import { avatarConfig } from './avatar-config';
import type { AvatarRecord } from './avatar-record';
import type { Avatar } from './schemas';

/** Turns stored avatars into the interface's Avatar (the URL depends on where avatars are served). */
export type AvatarPresenter = (avatar: AvatarRecord, enabled: boolean) => Avatar;

/** The interface's Avatar for a stored avatar: its URL under the configured public base (CloudFront in AWS). */
export const presentAvatar: AvatarPresenter = (avatar, enabled) => ({
  id: avatar.avatarId,
  created: avatar.created,
  enabled,
  provider: avatar.provider,
  url: `${avatarConfig().publicBaseUrl}/${avatar.objectKey}`,
});
