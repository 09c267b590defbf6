import { invoke } from '../../harness/invoke';
import { createTestUser, type TestUser } from '../../harness/users';
import { resetConfiguration } from '../../../functions/shared/config/define-config';
import { freePort, startServer, type LocalServer } from '../fetch/local-servers';
import { storedObjectKeys, storedRecords } from './stored-avatars';
import { SMALL_CROP as CROP, useAvatarTestBed } from './test-bed';

/**
 * Uploads that must fail: invalid bodies (refused before anything is fetched), sources that are
 * not allowed, too large or not images, crops outside the image. Each leaves nothing stored. The
 * "internal" server stands for a service on the private network: it is not on the allow list, and
 * every test asserts that it received nothing.
 */

const MiB = 1024 * 1024;

const bed = useAvatarTestBed();
let internal: LocalServer;
let user: TestUser;

beforeAll(async () => {
  internal = await startServer((_request, response) => response.writeHead(200, { 'content-type': 'image/png' }).end('secret'));
  bed.source.serve('/text.png', 'Hello, I am not an image.', 'image/png');
  bed.source.answer('/huge.jpg', (response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg' });
    response.on('error', () => undefined);
    response.end(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.alloc(12 * MiB)]));
  });
  bed.source.answer('/to-internal', (response) => response.writeHead(302, { location: `${internal.origin}/photo.png` }).end());
  user = await createTestUser();
});

afterAll(async () => {
  await internal.close();
});

beforeEach(() => {
  bed.source.takeRequests();
});

afterEach(async () => {
  expect(internal.takeConnections()).toBe(0);
  expect(await storedRecords()).toEqual([]);
  expect(await storedObjectKeys()).toEqual([]);
});

function upload(body: unknown) {
  return invoke('uploadCurrentAvatar', { token: user.token, body });
}

describe('invalid bodies: 400 naming the field, nothing fetched', () => {
  it.each([
    ['a rotation that is not a multiple of 90', { avatar: 'IMAGE', crop: { ...CROP, rotate: 45 } }, 'crop.rotate'],
    ['a rotation beyond a full turn', { avatar: 'IMAGE', crop: { ...CROP, rotate: 450 } }, 'crop.rotate'],
    ['an unknown flip', { avatar: 'IMAGE', crop: { ...CROP, flip: 'diagonal' } }, 'crop.flip'],
    ['a fractional left', { avatar: 'IMAGE', crop: { ...CROP, left: 1.5 } }, 'crop.left'],
    ['a negative top', { avatar: 'IMAGE', crop: { ...CROP, top: -1 } }, 'crop.top'],
    ['a size of 0', { avatar: 'IMAGE', crop: { ...CROP, size: 0 } }, 'crop.size'],
    ['a size over 100000', { avatar: 'IMAGE', crop: { ...CROP, size: 100_001 } }, 'crop.size'],
    ['no size', { avatar: 'IMAGE', crop: { left: 0, top: 0 } }, 'crop.size'],
    ['no crop', { avatar: 'IMAGE' }, 'crop'],
    ['an unknown crop field', { avatar: 'IMAGE', crop: { ...CROP, width: 10 } }, 'crop.width'],
    ['an unknown field', { avatar: 'IMAGE', crop: CROP, enabled: false }, 'enabled'],
    ['a file: address', { avatar: 'file:///etc/passwd', crop: CROP }, 'avatar'],
    ['an address over 2048 characters', { avatar: `IMAGE?${'x'.repeat(2048)}`, crop: CROP }, 'avatar'],
  ])('refuses %s', async (_, body, field) => {
    const response = await upload(JSON.parse(JSON.stringify(body).replace('IMAGE', bed.photoUrl)));

    expect(response.status).toBe(400);
    expect(response.body.code).toBe('validation_failed');
    expect(response.body.errors.map((error: { name: string }) => error.name)).toContain(field);
    expect(bed.source.takeRequests()).toEqual([]);
  });
});

describe('sources the fetch refuses or cannot use', () => {
  it('answers 400 on `avatar` for a loopback server not on the allow list, which receives nothing', async () => {
    const response = await upload({ avatar: `${internal.origin}/photo.png`, crop: CROP });

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ name: 'avatar', reason: 'must lead to a public internet address' }]);
    expect(JSON.stringify(response.body)).not.toContain(String(internal.port));
  });

  it('answers 400 when an allowed source redirects to a server not on the allow list', async () => {
    const response = await upload({ avatar: `${bed.source.server.origin}/to-internal`, crop: CROP });

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ name: 'avatar', reason: 'must lead to a public internet address' }]);
    expect(bed.source.takeRequests()).toEqual(['/to-internal']);
  });

  it('answers 400 for the link-local metadata address without trying to connect', async () => {
    const response = await upload({ avatar: 'http://169.254.169.254/latest/meta-data/', crop: CROP });

    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ name: 'avatar', reason: 'must lead to a public internet address' }]);
  });

  it('answers 413 for an image of 12 MB', async () => {
    const response = await upload({ avatar: `${bed.source.server.origin}/huge.jpg`, crop: CROP });

    expect(response.status).toBe(413);
    expect(response.body.code).toBe('payload_too_large');
  });

  it('answers 422 for text served as image/png', async () => {
    const response = await upload({ avatar: `${bed.source.server.origin}/text.png`, crop: CROP });

    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ code: 'unsupported_image', errors: [{ name: 'avatar', reason: 'must be a JPEG, PNG, WebP or GIF image' }] });
  });

  it('answers 422 source_refused, not a 5xx, when nothing listens on the port of an allowed source', async () => {
    const port = await freePort();
    const allowList = process.env.AVATAR_FETCH_ALLOW_HOSTS;
    process.env.AVATAR_FETCH_ALLOW_HOSTS = `${allowList}, 127.0.0.1:${port}`;
    resetConfiguration();
    try {
      const response = await upload({ avatar: `http://127.0.0.1:${port}/photo.png`, crop: CROP });

      expect(response.status).toBe(422);
      expect(response.headers['content-type']).toBe('application/problem+json');
      expect(response.body).toMatchObject({ code: 'source_refused', errors: [{ name: 'avatar', reason: 'must lead to a server that accepts connections' }] });
    } finally {
      process.env.AVATAR_FETCH_ALLOW_HOSTS = allowList;
      resetConfiguration();
    }
  });

  it('answers 502 when the source answers 404', async () => {
    const response = await upload({ avatar: `${bed.source.server.origin}/missing.png`, crop: CROP });

    expect(response.status).toBe(502);
    expect(response.body.code).toBe('upstream_failed');
  });
});

describe('crops outside the image: 422 naming the field', () => {
  it.each([
    ['left', { left: 64, top: 0, size: 1 }, 'crop.left'],
    ['top', { left: 0, top: 48, size: 1 }, 'crop.top'],
    ['size', { left: 20, top: 0, size: 48 }, 'crop.size'],
    ['size once rotated a quarter turn', { left: 0, top: 0, size: 64, rotate: 90 }, 'crop.size'],
  ])('refuses a crop whose %s reaches outside the 64×48 image', async (_, crop, field) => {
    const response = await upload({ avatar: bed.photoUrl, crop });

    expect(response.status).toBe(422);
    expect(response.body.code).toBe('crop_outside_image');
    expect(response.body.errors.map((error: { name: string }) => error.name)).toEqual([field]);
    expect(bed.source.takeRequests()).toEqual(['/photo.png']);
  });
});
