import { parseArgs } from 'node:util';
import { sampleMediaLogEntries } from '../seed/sample-entries';
import { writeMediaLogEntries } from '../../functions/media-log/feed/import-changes';
import type { Role } from '../../functions/shared/access/roles';
import { registerUser } from '../../functions/users/user-registration';
import { UsageError } from './cli-errors';
import { foldWrittenChanges, withData } from './data-access';
import { progressBar } from './progress';
import { userRepository } from '../tool-composition';

function count(raw: string | undefined, flag: string, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0 || value > max) throw new UsageError(`${flag} takes a count from 0 to ${max}.`);
  return value;
}

/** Role of the i-th demo user: one root, a few admins, then users with a couple of sub users each. */
function demoRole(index: number): Role {
  if (index === 0) return 'root';
  if (index % 25 === 1) return 'admin';
  return index % 3 === 0 ? 'user' : 'sub';
}

/** `seed [--users N] [--log N]`: demo users and media log entries, with progress bars. */
export async function seed(args: string[]): Promise<void> {
  let values: Record<string, string | undefined>;
  try {
    values = parseArgs({ args, options: { users: { type: 'string' }, log: { type: 'string' } }, strict: true }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const users = count(values.users, '--users', 20, 1_000_000);
  const log = count(values.log, '--log', 500, 10_000_000);
  const now = Date.now();
  const stamp = now.toString(36);
  const summary = await withData(async () => {
    const repository = userRepository();
    const ids: number[] = [];
    let parent: number | null = null;
    const bar = progressBar('users', users);
    try {
      for (let index = 0; index < users; index += 1) {
        const role = demoRole(index);
        const sub = role === 'sub' && parent !== null;
        const user = await registerUser(repository, {
          email: `demo-${stamp}-${index}@example.com`,
          username: `demo-${stamp}-${index}`,
          role: sub ? 'sub' : role === 'sub' ? 'user' : role,
          ...(sub ? { parent: parent as number } : {}),
          'first-name': 'Demo',
          'last-name': `User ${index}`,
        });
        if (user.role === 'user') parent = user.id;
        ids.push(user.id);
        bar.update(index + 1);
      }
    } finally {
      bar.stop();
    }
    const owners = ids.length > 0 ? ids : [1];
    // A new seed each run: the same one again would make the same entry ids for other users, which the log refuses.
    const entries = sampleMediaLogEntries(log, { userIds: owners, start: new Date(now - 30 * 86_400_000), spanMs: 30 * 86_400_000, seed: now });
    const logBar = progressBar('media log', log);
    try {
      await writeMediaLogEntries(entries, { onProgress: (done) => logBar.update(done) });
    } finally {
      logBar.stop();
    }
    await foldWrittenChanges();
    return { users: ids.length, log: entries.length };
  });
  process.stdout.write(`${summary.users} users and ${summary.log} media log entries created\n`);
}
