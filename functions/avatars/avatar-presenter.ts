import { avatarBucketName } from '../shared/storage/bucket-name';
import type { AvatarRecord } from './avatar-record';
import type { Avatar } from './schemas';

/** Turns stored avatars into the interface's Avatar (the URL depends on where avatars are served). */
export type AvatarPresenter = (avatar: AvatarRecord, enabled: boolean) => Avatar;

/**
 * Where avatar objects are served from: `AVATAR_PUBLIC_BASE_URL` (the CloudFront distribution in
 * AWS), else the local S3 bucket URL when `S3_ENDPOINT` is set, else the bucket's S3 URL.
 */
export function avatarBaseUrl(): string {
  const configured = process.env.AVATAR_PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const endpoint = process.env.S3_ENDPOINT;
  if (endpoint) return `${endpoint.replace(/\/+$/, '')}/${avatarBucketName()}`;
  return `https://${avatarBucketName()}.s3.amazonaws.com`;
}

/** The interface's Avatar for a stored avatar. */
export const presentAvatar: AvatarPresenter = (avatar, enabled) => ({
  id: avatar.avatarId,
  created: avatar.created,
  enabled,
  provider: avatar.provider,
  url: `${avatarBaseUrl()}/${avatar.objectKey}`,
});
