import type { TableAccess } from '../shared/deployment/data-grants';
import { USER_PARTITIONS } from '../shared/deployment/users-table-access';

/** What the avatar routes may write to the users table, shared by the uploads and the deletion. */

/**
 * What the avatar transactions write (avatar-repository.ts): an avatar item (avatar-record.ts's
 * attributes) put or deleted, only inside the transaction that also moves the profile.
 */
export const AVATAR_RECORD_WRITES = {
  actions: ['PutItem', 'DeleteItem'],
  partitions: USER_PARTITIONS,
  attributes: ['pk', 'sk', 'userId', 'avatarId', 'created', 'objectKey', 'provider'],
  inTransaction: true,
} as const satisfies TableAccess;

/** The profile's avatar fields and version, updated without reading anything back. */
export const PROFILE_AVATAR_UPDATE = {
  actions: ['UpdateItem'],
  partitions: USER_PARTITIONS,
  attributes: ['pk', 'sk', 'currentAvatarId', 'updated', 'version'],
  returnValues: ['NONE'],
} as const satisfies TableAccess;

/** The attributes of the profile that count a user's upload forms of one day (uploads/upload-form-quota.ts). */
export const UPLOAD_FORM_COUNTER = { day: 'uploadFormsDay', count: 'uploadFormsCount' } as const;

/** The profile's upload form counter, updated without reading anything back. */
export const UPLOAD_FORM_COUNT = {
  actions: ['UpdateItem'],
  partitions: USER_PARTITIONS,
  attributes: ['pk', 'sk', UPLOAD_FORM_COUNTER.day, UPLOAD_FORM_COUNTER.count],
  returnValues: ['NONE'],
} as const satisfies TableAccess;
