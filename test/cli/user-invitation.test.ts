import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userRepository } from '../../local/tool-composition';
import { runEntryPoint } from '../harness/cli-runner';
import { startCognitoStandIn, type CognitoStandIn } from '../harness/cognito-stand-in';
import { createTestUser } from '../harness/users';

/**
 * `user create` against a stack with the Cognito pool (DESIGN.md section 3): it invites the person
 * into the pool and stores the pool's `sub`, in one command, leaving nothing half-done when a step
 * fails. The real SDK client talks to a stand-in of the pool on 127.0.0.1.
 */

const POOL_ID = 'us-east-1_StandIn1';
const dataDir = mkdtempSync(join(tmpdir(), 'frontend-api-invitation-'));
let pool: CognitoStandIn;
let sequence = 0;

beforeAll(async () => {
  pool = await startCognitoStandIn();
});
afterAll(async () => {
  await pool.close();
});
beforeEach(() => {
  pool.calls.length = 0;
});

const cli = (args: string[], env: Record<string, string> = {}) =>
  runEntryPoint('cli.ts', args, { DATA_DIR: dataDir, USER_POOL_ID: POOL_ID, COGNITO_ENDPOINT: pool.endpoint, ...env });
const newEmail = () => `invitee${++sequence}-${Date.now()}@example.test`;
const lastLine = (stderr: string) => stderr.trimEnd().split('\n').at(-1);
const operations = () => pool.calls.map((call) => call.operation);

describe('cli user create with a user pool', () => {
  it('invites the person by email and stores the pool\'s sub as the user\'s subject', async () => {
    const email = newEmail();

    const run = await cli(['user', 'create', '--email', email, '--role', 'admin']);

    expect(run.status).toBe(0);
    const printed = JSON.parse(run.stdout) as { id: number; email: string; role: string };
    expect(printed).toMatchObject({ email, role: 'admin' });
    expect(pool.calls).toEqual([{
      operation: 'AdminCreateUser',
      body: { UserPoolId: POOL_ID, Username: email, UserAttributes: [{ Name: 'email', Value: email }, { Name: 'email_verified', Value: 'true' }], DesiredDeliveryMediums: ['EMAIL'] },
    }]);
    expect((await userRepository().findById(printed.id))?.subject).toBe(pool.logins.get(email));
    expect(run.stderr).toContain(`invited ${email} into the user pool ${POOL_ID}: Cognito emails them their username and a temporary password`);
  });

  it('links an existing identity with --subject, inviting nobody', async () => {
    const run = await cli(['user', 'create', '--email', newEmail(), '--subject', 'existing-sub-1']);

    expect(run.status).toBe(0);
    expect(pool.calls).toEqual([]);
    expect((await userRepository().findById((JSON.parse(run.stdout) as { id: number }).id))?.subject).toBe('existing-sub-1');
  });

  it('refuses in one line when the pool has a login for the email, storing nothing', async () => {
    const email = newEmail();
    pool.logins.set(email, 'someone-else');

    const run = await cli(['user', 'create', '--email', email]);

    expect(run.status).toBe(1);
    expect(lastLine(run.stderr)).toBe(`error: The user pool ${POOL_ID} already has a login for ${email}: link it with --subject and its sub instead of inviting it again.`);
    expect(await userRepository().emailClaimed(email)).toBe(false);
  });

  it('refuses a taken email or an invalid user before inviting anyone', async () => {
    const taken = await createTestUser();

    const again = await cli(['user', 'create', '--email', taken.record.email]);
    const orphan = await cli(['user', 'create', '--email', newEmail(), '--role', 'sub']);

    expect(lastLine(again.stderr)).toBe('error: A user with this email already exists.');
    expect(lastLine(orphan.stderr)).toBe('error: parent: A sub user needs a parent of role user.');
    expect(pool.calls).toEqual([]);
  });

  it('withdraws the invitation when the user cannot be stored after it', async () => {
    const holder = await createTestUser({ subject: 'sub-already-held' });
    pool.nextSub(holder.record.subject);
    const email = newEmail();

    const run = await cli(['user', 'create', '--email', email]);

    expect(run.status).toBe(1);
    expect(lastLine(run.stderr)).toBe('error: Another user already answers to this token subject. The invitation is withdrawn: its pool user is deleted, its temporary password void.');
    expect(pool.calls.at(-1)).toEqual({ operation: 'AdminDeleteUser', body: { UserPoolId: POOL_ID, Username: 'sub-already-held' } });
    expect(pool.logins.has(email)).toBe(false);
    expect(await userRepository().emailClaimed(email)).toBe(false);
  });

  it('names the pool user to delete by hand when the withdrawal fails too', async () => {
    const holder = await createTestUser({ subject: 'sub-held-twice' });
    pool.nextSub(holder.record.subject);
    pool.failNext('AdminDeleteUser', { status: 500, type: 'InternalErrorException', message: 'Try again later.' });
    const email = newEmail();

    const run = await cli(['user', 'create', '--email', email]);

    expect(run.status).toBe(1);
    expect(lastLine(run.stderr)).toBe(
      `error: Another user already answers to this token subject. The invitation could not be withdrawn (the user pool ${POOL_ID} refused to delete sub-held-twice: InternalErrorException: Try again later.): delete the pool user sub-held-twice by hand.`,
    );
    expect(pool.logins.get(email)).toBe('sub-held-twice');
  });

  it('says the pool\'s reason when it refuses the invitation, once, storing nothing', async () => {
    pool.failNext('AdminCreateUser', { status: 500, type: 'InternalErrorException', message: 'Cognito is having a bad day.' });
    const email = newEmail();

    const run = await cli(['user', 'create', '--email', email]);

    expect(run.status).toBe(1);
    expect(lastLine(run.stderr)).toBe(`error: the user pool ${POOL_ID} refused to invite ${email}: InternalErrorException: Cognito is having a bad day.`);
    expect(operations()).toEqual(['AdminCreateUser']);
    expect(await userRepository().emailClaimed(email)).toBe(false);
  });

  it('refuses a USER_POOL_ID that is no pool id before anything starts', async () => {
    const run = await cli(['user', 'create', '--email', newEmail()], { USER_POOL_ID: 'UserPoolId' });

    expect(run.status).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toEqual(["USER_POOL_ID=UserPoolId is no Cognito user pool id: take the stack's UserPoolId output (such as eu-west-1_AbCdEf123)."]);
    expect(pool.calls).toEqual([]);
  });

  it('asks for --subject or USER_POOL_ID on deployed tables without a pool', async () => {
    const run = await cli(['user', 'create', '--email', newEmail()], { USER_POOL_ID: '', USERS_TABLE_NAME: 'Users', DYNAMODB_ENDPOINT: '' });

    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^usage error: user create needs --subject .*, or USER_POOL_ID \(the UserPoolId output\) to invite the person/);
  });
});
