import { quadrantImage } from '../../fixtures/images/generate';
import { invoke, type InvokeResponse } from '../../harness/invoke';
import type { TestUser } from '../../harness/users';
import { installTripwire, type Tripwire } from '../fetch/connection-tripwire';
import { startImageSource, type ImageSource } from './image-source';

/**
 * What every avatar route test file sets up: a tripwire that stops (and records) any connection
 * outside loopback, asserted empty after each test, and an image source on the allow list serving
 * the 64×48 quadrant photo (red, green / blue, yellow).
 */

/** The crop most tests use: a 32-pixel square at the photo's top-left corner. */
export const SMALL_CROP = { left: 0, top: 0, size: 32 } as const;

/** The file's test bed, ready once its `beforeAll` has run. */
export interface AvatarTestBed {
  readonly source: ImageSource;
  /** URL of the quadrant photo (PNG). */
  readonly photoUrl: string;
  /** POST /user/current/avatar of the photo as `user`. */
  upload(user: TestUser, crop?: Readonly<Record<string, unknown>>): Promise<InvokeResponse>;
  /** DELETE /user/current/avatar/{avatar-id} as `user`. */
  remove(user: TestUser, avatarId: string): Promise<InvokeResponse>;
}

/** Registers the test bed's hooks in the calling test file. */
export function useAvatarTestBed(): AvatarTestBed {
  let tripwire: Tripwire;
  const bed = {
    source: undefined as unknown as ImageSource,
    photoUrl: '',
    upload: (user: TestUser, crop: Readonly<Record<string, unknown>> = SMALL_CROP) =>
      invoke('uploadCurrentAvatar', { token: user.token, body: { avatar: bed.photoUrl, crop } }),
    remove: (user: TestUser, avatarId: string) => invoke('deleteCurrentAvatar', { token: user.token, pathParameters: { 'avatar-id': avatarId } }),
  };
  beforeAll(async () => {
    tripwire = installTripwire();
    bed.source = await startImageSource();
    bed.photoUrl = bed.source.serve('/photo.png', await quadrantImage(64, 48, 'png'), 'image/png');
  });
  afterAll(async () => {
    tripwire.restore();
    await bed.source.close();
  });
  afterEach(() => {
    expect(tripwire.attempts.splice(0)).toEqual([]);
  });
  return bed;
}
