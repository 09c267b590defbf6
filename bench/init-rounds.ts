/**
 * Timed cold inits in rounds, shared by the benches that compare bundles by their init: each round
 * runs a bare `node -e ''` and every bundle once, as fresh processes, in a new random order, so that
 * drifting machine load hits all alike; each bundle's wall time is also kept as its difference from
 * the bare start of the same round.
 */
import { tables } from '../functions/shared/tables';
import { avatarBucket } from '../functions/shared/storage/avatar-bucket';
import { DEPLOYED_SETTINGS, timeBareNode, timeInit, type InitSample } from '../local/lambda/lambda-process';
import { formatSpread, progressBar, spread, type Spread } from './report';

/**
 * What the stack puts in every function's environment, with stand-in values: init reads names and
 * settings, never calls AWS, so dummy credentials and an unreachable issuer do.
 */
export function deployedConfiguration(): Record<string, string> {
  return {
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'bench',
    AWS_SECRET_ACCESS_KEY: 'bench',
    ...Object.fromEntries(tables.map((table) => [table.nameEnv, table.id])),
    [avatarBucket.nameEnv]: avatarBucket.id,
    AVATAR_PUBLIC_BASE_URL: 'https://avatars.invalid',
    AUTH_ISSUER: 'https://issuer.invalid/',
    AUTH_JWKS_URL: 'https://issuer.invalid/.well-known/jwks.json',
    AUTH_COGNITO_CLIENT_ID: 'bench',
    // At least MIN_CURSOR_SECRET_LENGTH (32) characters: a shorter key fails the list functions' init.
    CURSOR_SECRET: 'cold-start-bench-cursor-signing-key',
    ...DEPLOYED_SETTINGS,
  };
}

/** A bundle to time: its task folder and environment, and its samples so far. */
export interface InitSubject {
  readonly folder: string;
  readonly environment: Record<string, string>;
  readonly samples: InitSample[];
  /** This subject's wall time minus the bare start of the same round. */
  readonly overBare: number[];
}

/** Fisher–Yates, so no bundle always runs right after another (a warm page cache, a busy neighbour). */
function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** One round: the bare start and every subject once, in a random order; returns the bare start's wall time. */
function runRound(subjects: readonly InitSubject[], bareEnvironment: Record<string, string>, record: boolean): number {
  let bareMs = Number.NaN;
  const walls = new Map<InitSubject, number>();
  for (const job of shuffled<InitSubject | 'bare'>(['bare', ...subjects])) {
    if (job === 'bare') bareMs = timeBareNode(bareEnvironment);
    else {
      const sample = timeInit(job.folder, job.environment);
      walls.set(job, sample.wallMs);
      if (record) job.samples.push(sample);
    }
  }
  if (record) for (const [subject, wallMs] of walls) subject.overBare.push(wallMs - bareMs);
  return bareMs;
}

/**
 * Time `rounds` rounds of `subjects` (their samples fill in), after one unrecorded round that warms
 * the file cache and fails fast on a bundle that cannot load; returns the bare start's spread.
 */
export function timeRounds(subjects: readonly InitSubject[], bareEnvironment: Record<string, string>, rounds: number, label: string): Spread {
  runRound(subjects, bareEnvironment, false);
  const bareSamples: number[] = [];
  const bar = progressBar(label, rounds);
  for (let round = 0; round < rounds; round += 1) {
    bareSamples.push(runRound(subjects, bareEnvironment, true));
    bar.increment(1);
  }
  bar.stop();
  return spread(bareSamples);
}

/** Median wall time of a subject, and its median over the bare start with the spread of the per-round differences. */
export function initFigures(subject: InitSubject, bare: Spread): { readonly process: Spread; readonly overBare: { readonly medians: number; readonly paired: Spread }; readonly importCall: Spread } {
  const processSpread = spread(subject.samples.map((sample) => sample.wallMs));
  return {
    process: processSpread,
    overBare: { medians: processSpread.median - bare.median, paired: spread(subject.overBare) },
    importCall: spread(subject.samples.map((sample) => sample.importMs)),
  };
}

/** A median over the bare start, with the spread of the per-round differences around it. */
export function formatOverBare(value: { readonly medians: number; readonly paired: Spread }): string {
  return formatSpread({ ...value.paired, median: value.medians });
}
