/**
 * Avatar upload: the whole pipeline of the upload routes (access read, SSRF-safe fetch from a local
 * server, crop, S3 put, record transaction) on a 12-megapixel JPEG, against bare sharp
 * decode → crop → encode of the same bytes into the same avatar, measured in the same run (the
 * series take turns). Target: the pipeline's p50 at most 1.3× bare sharp's. The crop pipeline
 * alone (cropAvatar) and the fetch alone are reported beside them.
 *
 * Starts its own in-memory backends (or uses those `DYNAMODB_ENDPOINT` / `S3_ENDPOINT` name). Run
 * alone with `npx tsx bench/avatar-pipeline.ts [--quick]`, or through `npm run bench`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { IdentityRepository } from '../functions/auth/identity-repository';
import { StoredCallers } from '../functions/auth/stored-callers';
import { avatarConfig } from '../functions/avatars/avatar-config';
import { AvatarImages } from '../functions/avatars/avatar-images';
import { AvatarRemoval } from '../functions/avatars/avatar-removal';
import { AvatarService } from '../functions/avatars/avatar-service';
import { fetchImage } from '../functions/avatars/fetch';
import { AVATAR_MAX_SIDE, cropAvatar } from '../functions/avatars/image';
import { UploadedImages } from '../functions/avatars/uploads/uploaded-images';
import { getDocumentClient, getS3Client, resetClients } from '../functions/shared/aws/clients';
import { avatarBucketName, tableName } from '../functions/shared/config/data-config';
import { logger } from '../functions/shared/logger';
import { usersTable } from '../functions/shared/tables/users-table';
import { registerUser } from '../functions/users/user-registration';
import { startBackends } from '../local/backends';
import { useLocalEnvironment } from '../local/environment';
import { avatarRepository, avatarStorage, userRepository } from '../local/tool-composition';
import { formatMs, formatRatio, formatSummary, formatTable, ratio, summarize, timed, type TargetResult } from './report';

/** Largest p50 ratio of the upload pipeline over bare sharp. */
export const AVATAR_PIPELINE_BUDGET = 1.3;

/** Width and height of the source photo: 12 megapixels, a common phone camera. */
const PHOTO = { width: 4000, height: 3000 } as const;

/** The crop of every sample: a 2000-pixel square, scaled to the 512-pixel avatar. */
const CROP = { left: 1000, top: 500, size: 2000 } as const;

/** Options of {@link benchAvatarPipeline}. */
export interface AvatarPipelineOptions {
  /** Fewer samples, for a fast check. */
  readonly quick?: boolean;
}

/** One measured series. */
export interface AvatarPipelineRow {
  readonly series: string;
  readonly samples: number;
  readonly p50: string;
  readonly p95: string;
  readonly 'p50 vs bare sharp': string;
}

/** The figures, and the summary line for `npm run bench`. */
export interface AvatarPipelineResult {
  readonly rows: readonly AvatarPipelineRow[];
  /** Pipeline p50 over bare sharp p50. */
  readonly ratio: number;
  readonly photoBytes: number;
  /** Whether bare sharp and the pipeline produced the very same avatar bytes. */
  readonly sameAvatar: boolean;
  readonly targets: readonly TargetResult[];
}

/** A 12 MP JPEG with a photo's mix of smooth areas and fine detail (gradients under noise). */
async function twelveMegapixelJpeg(): Promise<Buffer> {
  const { width, height } = PHOTO;
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
      const noise = (seed >> 16) % 24;
      const offset = (y * width + x) * 3;
      pixels[offset] = ((x * 255) / width + noise) & 0xff;
      pixels[offset + 1] = ((y * 255) / height + noise) & 0xff;
      pixels[offset + 2] = (((x + y) * 128) / (width + height) + 64 + noise) & 0xff;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
}

/**
 * The avatar's WebP settings (functions/avatars/image/crop-avatar.ts): the baseline encodes the same
 * avatar, so that the ratio measures the pipeline's overhead and not a choice of encoder settings.
 */
const AVATAR_WEBP = { quality: 82, alphaQuality: 100, smartSubsample: true } as const;

/** Bare sharp, the baseline: one pipeline that decodes, cuts the square, scales and encodes. */
function bareSharp(photo: Buffer): Promise<Buffer> {
  const side = Math.min(CROP.size, AVATAR_MAX_SIDE);
  return sharp(photo)
    .extract({ left: CROP.left, top: CROP.top, width: CROP.size, height: CROP.size })
    .resize(side, side)
    .webp(AVATAR_WEBP)
    .toBuffer();
}

/** Serves `photo` on 127.0.0.1 and puts the server on the fetch's allow list. */
async function servePhoto(photo: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': photo.byteLength }).end(photo);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.env.AVATAR_FETCH_ALLOW_HOSTS = `127.0.0.1:${port}`;
  return { url: `http://127.0.0.1:${port}/photo.jpg`, server };
}

/** Runs `steps` in turn `rounds` times, rotating which goes first; returns each one's timings. */
async function alternate(rounds: number, steps: readonly (() => Promise<number>)[]): Promise<number[][]> {
  const samples: number[][] = steps.map(() => []);
  for (let round = 0; round < rounds; round += 1) {
    for (let turn = 0; turn < steps.length; turn += 1) {
      const index = (round + turn) % steps.length;
      samples[index]!.push(await steps[index]!());
    }
  }
  return samples;
}

/** Environment variables this benchmark changes, put back afterwards. */
const TOUCHED_ENV = ['DYNAMODB_ENDPOINT', 'S3_ENDPOINT', 'AUTH_JWKS_FILE', 'AVATAR_FETCH_ALLOW_HOSTS'] as const;

/** Measures the upload pipeline against bare sharp on its own backends; prints nothing. */
export async function benchAvatarPipeline(options: AvatarPipelineOptions = {}): Promise<AvatarPipelineResult> {
  const { warmup, rounds } = options.quick ? { warmup: 2, rounds: 8 } : { warmup: 3, rounds: 25 };
  const savedEnv = TOUCHED_ENV.map((name) => [name, process.env[name]] as const);
  const dataDir = await mkdtemp(join(tmpdir(), 'frontend-api-bench-avatars-'));
  const backends = await startBackends({ dataDir, inMemory: true });
  let server: Server | undefined;
  try {
    await useLocalEnvironment(dataDir, backends);
    const photo = await twelveMegapixelJpeg();
    const served = await servePhoto(photo);
    server = served.server;
    const user = await registerUser(userRepository(), { email: `avatar-bench-${Date.now()}@bench.example`, 'first-name': 'Bench' });
    const caller = await new StoredCallers(new IdentityRepository(getDocumentClient(), tableName(usersTable))).resolve({ userId: user.id, role: user.role, parentId: user.parentId });
    // What the upload routes run: the avatar service with the image pipeline.
    const images = new AvatarImages(new UploadedImages(getS3Client(), avatarBucketName()));
    const service = new AvatarService({ avatars: avatarRepository(), storage: avatarStorage(), images, maxAvatars: avatarConfig().maxPerUser });
    const removal = new AvatarRemoval({ avatars: avatarRepository(), storage: avatarStorage() });
    const request = { avatar: served.url, crop: CROP };

    const sameAvatar = (await bareSharp(photo)).equals((await cropAvatar(photo, CROP, { maxPixels: 40_000_000 })).webp);

    const bare = async () => (await timed(() => bareSharp(photo))).ms;
    const crop = async () => (await timed(() => cropAvatar(photo, CROP, { maxPixels: 40_000_000 }))).ms;
    const fetch = async () => (await timed(() => fetchImage(served.url, avatarConfig().fetch))).ms;
    const upload = async () => {
      const { ms, value } = await timed(() => service.upload(caller, 'current', request));
      // Untimed: keep the user's partition at one avatar, so every sample reads and writes the same.
      await removal.remove(caller, value.id);
      return ms;
    };
    await alternate(warmup, [bare, crop, fetch, upload]);
    const [bareMs, cropMs, fetchMs, uploadMs] = await alternate(rounds, [bare, crop, fetch, upload]);

    const baseline = summarize(bareMs!);
    const row = (series: string, samples: readonly number[]): AvatarPipelineRow => {
      const stats = summarize(samples);
      return { series, samples: stats.count, p50: formatMs(stats.p50), p95: formatMs(stats.p95), 'p50 vs bare sharp': formatRatio(ratio(stats.p50, baseline.p50)) };
    };
    const pipelineRatio = ratio(summarize(uploadMs!).p50, baseline.p50);
    return {
      rows: [
        row('bare sharp: decode → crop → resize → WebP', bareMs!),
        row('cropAvatar: sniff, orientation plan, crop, WebP', cropMs!),
        row('fetchImage alone: the JPEG from a loopback server', fetchMs!),
        row('upload: access read + fetch + cropAvatar + S3 put + record', uploadMs!),
      ],
      ratio: pipelineRatio,
      photoBytes: photo.byteLength,
      sameAvatar,
      targets: [{
        bench: `avatar upload p50 / bare sharp p50 (${PHOTO.width}×${PHOTO.height} JPEG)`,
        target: `≤ ${formatRatio(AVATAR_PIPELINE_BUDGET)}`,
        measured: formatRatio(pipelineRatio),
        pass: pipelineRatio <= AVATAR_PIPELINE_BUDGET,
      }],
    };
  } finally {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    for (const [name, value] of savedEnv) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetClients();
    await backends.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The rows as a table, under a line naming the source photo. */
export function formatAvatarPipeline(result: AvatarPipelineResult): string {
  const headers = ['series', 'samples', 'p50', 'p95', 'p50 vs bare sharp'] as const;
  const photo =
    `Source: ${PHOTO.width}×${PHOTO.height} JPEG of ${(result.photoBytes / 1024 / 1024).toFixed(1)} MB; crop ${CROP.size} px square → ${AVATAR_MAX_SIDE} px WebP; ` +
    `bare sharp and the pipeline produce ${result.sameAvatar ? 'the same avatar, byte for byte' : 'different bytes (check the settings)'}.`;
  return `${photo}\n\n${formatTable(headers, result.rows.map((row) => headers.map((header) => row[header])))}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  logger.setLogLevel('WARN');
  const result = await benchAvatarPipeline({ quick: process.argv.includes('--quick') });
  console.log(formatAvatarPipeline(result));
  console.log(`\n${formatSummary(result.targets)}`);
  process.exitCode = result.targets.every((target) => target.pass !== false) ? 0 : 1;
}
