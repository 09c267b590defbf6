import { randomUUID } from 'node:crypto';
import { createTestUser, type TestUser } from '../harness/users';
import { settle, useLiveStack, type LiveClient } from '../harness/live';
import { requestMessage } from '../media-log/feed/feed-fixture';

/**
 * Whose entries a subscription hears of: exactly those the media log listing shows the caller
 * (DESIGN.md section 2), whatever its filter asks. A sub never hears of its parent's or a sibling's
 * entries, a user never of another family's, an admin never of a root user's; a `user-id` filter
 * naming a user outside the scope gets nothing of that user, as the listing shows nothing of it.
 */

const live = useLiveStack();

interface Person {
  readonly user: TestUser;
  client: LiveClient;
}

const people: Record<'parent' | 'sub' | 'sibling' | 'stranger' | 'admin' | 'root', Person> = {} as never;
/** The entry each person sent, by person. */
const sent: Record<string, string> = {};

beforeAll(async () => {
  const parent = await createTestUser({ role: 'user' });
  const users = {
    parent,
    sub: await createTestUser({ role: 'sub', parent: parent.record.id }),
    sibling: await createTestUser({ role: 'sub', parent: parent.record.id }),
    stranger: await createTestUser({ role: 'user' }),
    admin: await createTestUser({ role: 'admin' }),
    root: await createTestUser({ role: 'root' }),
  };
  for (const [name, user] of Object.entries(users)) people[name as keyof typeof people] = { user, client: await live.open(user.token) };
  const { sub, stranger, admin, parent: head } = people;
  const subscriptions: [LiveClient, string, object][] = [
    ...Object.values(people).map((person): [LiveClient, string, object] => [person.client, 'everything', {}]),
    [sub.client, 'family', { 'user-id': [head.user.record.id, people.sibling.user.record.id] }],
    [stranger.client, 'other-family', { 'user-id': [head.user.record.id] }],
    [admin.client, 'roots', { 'user-id': [people.root.user.record.id] }],
    [admin.client, 'errors', { status: ['error'] }],
  ];
  for (const [client, id, filter] of subscriptions) expect(await client.subscribe(id, filter)).toEqual({ type: 'subscribed', id });
  await settle();
  for (const [name, person] of Object.entries(people)) {
    const id = randomUUID();
    sent[name] = id;
    await live.feed([requestMessage({ id, send: new Date().toISOString(), url: `https://media.example/${name}`, 'user-id': person.user.record.id, status: name === 'stranger' ? 'error' : 'pending' })]);
  }
  // Everything that is to arrive has arrived once root, who sees every entry, heard of the last;
  // a second more lets anything that should not arrive show.
  await people.root.client.next((message) => message.type === 'entry' && message.entry.id === sent.root, 15_000);
  await new Promise((resolve) => setTimeout(resolve, 2500));
}, 120_000);

/** The people whose entries a subscription heard of. */
function heardOf(person: Person, subscription: string): string[] {
  const ids = new Set(person.client.messages.flatMap((message) => (message.type === 'entry' && message.subscription === subscription ? [message.entry.id] : [])));
  return Object.entries(sent).filter(([, id]) => ids.has(id)).map(([name]) => name).sort();
}

describe('a subscription without a filter', () => {
  it.each([
    ['a sub', 'sub', ['sub']],
    ['a user', 'parent', ['parent', 'sibling', 'sub']],
    ['another family\'s user', 'stranger', ['stranger']],
    ['an admin', 'admin', ['admin', 'parent', 'sibling', 'stranger', 'sub']],
    ['root', 'root', ['admin', 'parent', 'root', 'sibling', 'stranger', 'sub']],
  ] as const)('of %s hears of exactly the entries the listing shows it', (_who, name, expected) => {
    expect(heardOf(people[name], 'everything')).toEqual([...expected]);
  });
});

describe('a filter naming users outside the scope', () => {
  it('gets a sub nothing of its parent or sibling', () => {
    expect(heardOf(people.sub, 'family')).toEqual([]);
  });

  it('gets a user nothing of another family', () => {
    expect(heardOf(people.stranger, 'other-family')).toEqual([]);
  });

  it('gets an admin nothing of a root user', () => {
    expect(heardOf(people.admin, 'roots')).toEqual([]);
  });
});

describe('a status filter', () => {
  it('hears of the entries in that status only', () => {
    expect(heardOf(people.admin, 'errors')).toEqual(['stranger']);
  });
});
