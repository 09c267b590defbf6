import { avatarBucket } from './avatar-bucket';

/** The avatar bucket's name: the deployed one from its env variable, or the definition's id locally. */
export function avatarBucketName(): string {
  return process.env[avatarBucket.nameEnv] || avatarBucket.id;
}
