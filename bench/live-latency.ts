import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { LIVE_ENV } from '../functions/live/live-config';
import { LIVE_LIMITS } from '../functions/live/model/live-limits';
import type { LiveMessage } from '../functions/live/model/live-messages';
import { API_PREFIX } from '../functions/shared/http/route-definition';
import { registerUser } from '../functions/users/user-registration';
import { resetServiceState } from '../local/environment';
import { MemoryCheckpoints } from '../local/fold/checkpoints';
import { LocalStreamConsumers } from '../local/fold/stream-consumers';
import { AuthorizerRunner, loadAuthorizer } from '../local/gateway/authorizer-runner';
import { startGateway } from '../local/gateway/http-server';
import { lambdaContext } from '../local/gateway/lambda-context';
import { generateSqsEvent } from '../local/invoke/sqs-event';
import { startLiveServer } from '../local/live/live-server';
import { mintLocalToken, type LocalSigningKey } from '../local/signing-key';
import { userRepository } from '../local/tool-composition';
import { percentile } from './report';

/**
 * The live media log locally, as `npm start` runs it (DESIGN.md 9: a change visible in a subscribed
 * browser within 2 s, p95, with 100 connections): 100 users each hold a connection subscribed to
 * their entries; the feed's consumer takes new requests and their status changes for them, a batch
 * a quarter second; every stream consumer polls as `npm start`'s do. Each message's delay is from
 * the feed batch that wrote its state to its arrival; at the end every watcher must have the last
 * state of every entry of its own (nothing lost).
 */

/** What the run measured. */
export interface LiveLatency {
  readonly connections: number;
  readonly changes: number;
  readonly messages: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  /** Entries whose last state some watcher of them never received. */
  readonly lost: number;
}

const FEED_EVERY_MS = 250;

interface Watcher {
  readonly userId: number;
  readonly socket: WebSocket;
  readonly last: Map<string, string>;
}

const stateOf = (entry: { status: string; 'status-ffscan': string }) => `${entry.status}/${entry['status-ffscan']}`;

async function openWatchers(baseUrl: string, key: LocalSigningKey, count: number, onMessage: (watcher: Watcher, message: LiveMessage) => void): Promise<Watcher[]> {
  const watchers: Watcher[] = [];
  for (let index = 0; index < count; index += 1) {
    const user = await registerUser(userRepository(), { email: `live-bench-${index}-${randomUUID()}@example.test`, role: 'user' });
    const token = await mintLocalToken(key, user.subject, 3600);
    const ticket = (await (await fetch(`${baseUrl}${API_PREFIX}/media/log/live`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).json()) as { url: string };
    const socket = new WebSocket(ticket.url, { origin: 'http://localhost:5173' });
    const watcher: Watcher = { userId: user.id, socket, last: new Map() };
    socket.on('message', (data: Buffer) => onMessage(watcher, JSON.parse(data.toString('utf8')) as LiveMessage));
    await new Promise((resolve, reject) => (socket.once('open', resolve), socket.once('error', reject)));
    socket.send(JSON.stringify({ action: 'subscribe', id: 'mine', filter: {} }));
    watchers.push(watcher);
  }
  return watchers;
}

/** Measure, with the local back-ends this process uses. */
export async function benchLiveLatency(key: LocalSigningKey, options: { readonly connections?: number; readonly seconds?: number; readonly entriesPerSecond?: number } = {}): Promise<LiveLatency> {
  // The feed's consumer reads its configuration as it loads: once the back-ends are known.
  const { handler: ingest } = await import('../functions/media-log/feed/ingest-media-log');
  const live = await startLiveServer({ port: 0, accessLog: null });
  process.env[LIVE_ENV.websocketUrl] = live.url;
  process.env[LIVE_ENV.connectionsEndpoint] = live.connectionsEndpoint;
  resetServiceState();
  const gateway = await startGateway(new AuthorizerRunner(await loadAuthorizer(), 300), 0, { accessLog: null });
  const consumers = new LocalStreamConsumers(() => new MemoryCheckpoints());
  consumers.start(() => undefined);
  const written = new Map<string, number>();
  const delays: number[] = [];
  const watchers = await openWatchers(gateway.baseUrl, key, options.connections ?? 100, (watcher, message) => {
    if (message.type !== 'entry') return;
    const at = written.get(`${message.entry.id} ${stateOf(message.entry)}`);
    if (at !== undefined) delays.push(Date.now() - at);
    watcher.last.set(message.entry.id, stateOf(message.entry));
  });
  await new Promise((resolve) => setTimeout(resolve, LIVE_LIMITS.subscriptionEffectMs + 500));
  const finals = new Map<string, { userId: number; state: string }>();
  let changes = 0;
  try {
    const rounds = ((options.seconds ?? 30) * 1000) / FEED_EVERY_MS;
    const perRound = Math.max(1, Math.round(((options.entriesPerSecond ?? 20) * FEED_EVERY_MS) / 1000));
    let waiting: { id: string; userId: number; steps: [string, string, string][] }[] = [];
    for (let round = 0; round < rounds || waiting.length > 0; round += 1) {
      const messages: object[] = [];
      const record = (id: string, userId: number, state: string) => {
        written.set(`${id} ${state}`, Date.now());
        finals.set(id, { userId, state });
      };
      // The next change of each entry in flight, a round (a quarter second) after its last.
      const next: typeof waiting = [];
      for (const entry of waiting) {
        const [field, value, state] = entry.steps.shift() as [string, string, string];
        messages.push({ type: 'status', id: entry.id, field, value, at: new Date().toISOString() });
        record(entry.id, entry.userId, state);
        if (entry.steps.length > 0) next.push(entry);
      }
      waiting = next;
      for (let index = 0; round < rounds && index < perRound; index += 1) {
        const id = randomUUID();
        const userId = (watchers[Math.floor(Math.random() * watchers.length)] as Watcher).userId;
        messages.push({ type: 'media-request', entry: { id, send: new Date().toISOString(), url: `https://media.example/${id}`, 'user-id': userId } });
        record(id, userId, 'pending/pending');
        waiting.push({ id, userId, steps: [['status', 'processing', 'processing/pending'], ['status-ffscan', 'success', 'processing/success'], ['status', 'success', 'success/success']] });
      }
      changes += messages.length;
      for (let offset = 0; offset < messages.length; offset += 10) {
        await ingest(generateSqsEvent(messages.slice(offset, offset + 10).map((message) => JSON.stringify(message)), 'MediaLogEvents'), lambdaContext('ingestMediaLog', 60_000));
      }
      await new Promise((resolve) => setTimeout(resolve, FEED_EVERY_MS));
    }
    // The last states, coalesced within a second, then at most a poll and a run behind.
    await new Promise((resolve) => setTimeout(resolve, 5000));
  } finally {
    for (const watcher of watchers) watcher.socket.close();
    await live.close();
    await gateway.close();
    await consumers.stop();
  }
  const byUser = new Map(watchers.map((watcher) => [watcher.userId, watcher]));
  const lost = [...finals].filter(([id, { userId, state }]) => byUser.get(userId)?.last.get(id) !== state).length;
  const sorted = [...delays].sort((a, b) => a - b);
  return { connections: watchers.length, changes, messages: delays.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), maxMs: sorted.at(-1) ?? 0, lost };
}
