import { signIn, type LiveWatch, type MediaLogEntry, type MediaLogFilter } from '../../clients/web/src/index.js';

/**
 * The script of the live test page (bundled for the browser): a frontend watching the media log
 * with the typed client's `watchMediaLog`, every call a real `fetch` and the connection the
 * browser's own `WebSocket`. It keeps what it saw, with when it saw it, for the test to read.
 */

/** What the page saw. */
export interface LiveSightings {
  readonly entries: { readonly at: number; readonly entry: MediaLogEntry; readonly matches: boolean }[];
  readonly pages: { readonly at: number; readonly ids: string[] }[];
  readonly statuses: { readonly at: number; readonly status: string }[];
  readonly errors: unknown[];
}

const seen: LiveSightings = { entries: [], pages: [], statuses: [], errors: [] };
let watch: LiveWatch | undefined;

/** Start watching; resolves once subscribed. */
async function startWatch(input: { apiBaseUrl: string; token: string; filter: MediaLogFilter }): Promise<void> {
  watch = signIn(input.apiBaseUrl, input.token).watchMediaLog(input.filter, (entry, matches) => seen.entries.push({ at: Date.now(), entry, matches }), {
    onPage: (page) => seen.pages.push({ at: Date.now(), ids: page.log.map((entry) => entry.id) }),
    onStatus: (status) => seen.statuses.push({ at: Date.now(), status }),
    onError: (problem) => seen.errors.push(problem),
    backoff: { firstMs: 200, maxMs: 1000 },
  });
  await watch.ready;
}

/** What the page saw so far. */
function sightings(): LiveSightings {
  return seen;
}

/** Open a WebSocket to `url` as any script of this page could, and say how it ended. */
function tryConnect(url: string): Promise<string> {
  return new Promise((resolve) => {
    const Socket = (globalThis as unknown as { WebSocket: new (url: string) => { onopen: (() => void) | null; onclose: ((event: { code: number }) => void) | null; close(): void } }).WebSocket;
    const socket = new Socket(url);
    socket.onopen = () => {
      socket.close();
      resolve('open');
    };
    socket.onclose = (event) => resolve(`closed ${event.code}`);
  });
}

Object.assign(globalThis, { startWatch, sightings, tryConnect, stopWatch: () => watch?.close() });
