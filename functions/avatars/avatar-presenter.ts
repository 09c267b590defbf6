import { avatarBucketName } from '../shared/storage/bucket-name';
import type { Avatar } from '../users/schemas';
import type { AvatarRecord } from '../users/user-record';

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
export function presentAvatar(avatar: AvatarRecord, enabled: boolean): Avatar {
  return {
    id: avatar.avatarId,
    created: avatar.created,
    enabled,
    provider: avatar.provider,
    url: `${avatarBaseUrl()}/${avatar.objectKey}`,
  };
}
