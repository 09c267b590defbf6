import type { components, operations } from './api-types.js';

/**
 * The live media log in a frontend (the service's DESIGN.md 7c): `watchMediaLog` keeps a subscription
 * open over the WebSocket that POST /media/log/live hands a ticket to, and calls `onEntry` with
 * each entry that changes and matches (or stops matching) the filter. It gets a ticket, connects,
 * subscribes; when the connection ends (the token's expiry, an idle 10 minutes, API Gateway's two
 * hours, the network) it connects again with a fresh ticket after a capped, growing wait, and each
 * time it (re)connects, and when the service says it dropped messages (`overflow`), it fetches the
 * page again, so that nothing missed in between stays missed.
 */

/** A media log entry as the API returns it. */
export type MediaLogEntry = components['schemas']['LiveEntryMessage']['entry'];
/** A message the live media log sends. */
export type LiveMessage = components['schemas']['LiveMessage'];
/** The answer of POST /media/log/live. */
export type LiveTicket = operations['createLiveTicket']['responses'][201]['content']['application/json'];
/** The filter of a subscription: the filter of GET /media/log (no sort, no pagination). */
export type MediaLogFilter = Omit<NonNullable<operations['listMediaLog']['parameters']['query']>, 'sort' | 'pagination'>;
/** What GET /media/log answers. */
export type MediaLogPage = operations['listMediaLog']['responses'][200]['content']['application/json'];
/** The RFC 9457 problem of an error answer. */
type Problem = components['schemas']['Problem'];

/** What the watcher needs of a WebSocket: the browser's `WebSocket`, or any implementation of it (`ws` in Node). */
export interface LiveSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onclose: ((event: { readonly code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** A WebSocket class. */
export type LiveSocketClass = new (url: string) => LiveSocket;

/** What the watcher calls the API with: a signed-in session's ticket and page calls. */
export interface LiveApi {
  openLive(): Promise<{ data?: LiveTicket; error?: Problem; response: Response }>;
  mediaLog(query: NonNullable<operations['listMediaLog']['parameters']['query']>): Promise<{ data?: MediaLogPage; error?: Problem; response: Response }>;
}

/** How a watch behaves besides its filter. */
export interface WatchOptions {
  /** The page to show (sort, pagination) with the filter; fetched on every (re)connect and overflow. */
  readonly page?: Pick<NonNullable<operations['listMediaLog']['parameters']['query']>, 'sort' | 'pagination'>;
  /** Called with the page each time it is fetched. */
  readonly onPage?: (page: MediaLogPage) => void;
  /** Called when the watch gives up: the token is refused (401: sign in again) or the user may not watch (403). */
  readonly onError?: (problem: Problem) => void;
  /** Called as the connection opens and closes. */
  readonly onStatus?: (status: 'connecting' | 'open' | 'closed') => void;
  /** The WebSocket class; the global `WebSocket` by default. */
  readonly WebSocket?: LiveSocketClass;
  /** The first wait before a reconnect (doubling each time, reset once connected), and the longest. */
  readonly backoff?: { readonly firstMs: number; readonly maxMs: number };
}

/** A running watch. */
export interface LiveWatch {
  /** Resolves once the first subscription is confirmed (or the watch gave up). */
  readonly ready: Promise<void>;
  /** End the watch and its connection. */
  close(): void;
}

/** The one subscription a watch keeps on its connection. */
const SUBSCRIPTION = 'watch';
/**
 * How long after `subscribed` the page is fetched: the API pushes the changes written a second
 * after `subscribed` (POST /media/log/live's description), the page covers those before.
 */
const SETTLE_MS = 1250;
const DEFAULT_BACKOFF = { firstMs: 500, maxMs: 30_000 };

/** Watch the media log entries that match `filter`, through `api` (a signed-in session). */
export function watchMediaLog(api: LiveApi, filter: MediaLogFilter, onEntry: (entry: MediaLogEntry, matches: boolean) => void, options: WatchOptions = {}): LiveWatch {
  const Socket = options.WebSocket ?? (globalThis as unknown as { WebSocket: LiveSocketClass }).WebSocket;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  let closed = false;
  let socket: LiveSocket | undefined;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let confirm: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (confirm = resolve));

  const refetch = async () => {
    if (options.onPage === undefined) return;
    const { data } = await api.mediaLog({ ...filter, ...options.page });
    if (data !== undefined && !closed) options.onPage(data);
  };
  const giveUp = (problem: Problem) => {
    closed = true;
    confirm();
    options.onError?.(problem);
  };
  const retry = () => {
    if (closed) return;
    // Capped, growing, with jitter: a fleet of tabs does not come back all at once.
    const wait = Math.min(backoff.maxMs, backoff.firstMs * 2 ** failures) * (0.5 + Math.random() / 2);
    failures += 1;
    timer = setTimeout(() => void connect(), wait);
  };
  const onMessage = (message: LiveMessage) => {
    if (message.type === 'subscribed') {
      failures = 0;
      confirm();
      timer = setTimeout(() => void refetch(), SETTLE_MS);
    } else if (message.type === 'entry') onEntry(message.entry, message.matches);
    else if (message.type === 'overflow') void refetch();
    else if (message.type === 'error' && message.id === SUBSCRIPTION) giveUp(message as unknown as Problem);
  };
  const connect = async () => {
    options.onStatus?.('connecting');
    const ticket = await api.openLive().catch(() => undefined);
    if (closed) return;
    if (ticket?.error !== undefined && (ticket.response.status === 401 || ticket.response.status === 403)) return giveUp(ticket.error);
    if (ticket?.data === undefined) return retry();
    socket = new Socket(ticket.data.url);
    socket.onopen = () => {
      options.onStatus?.('open');
      socket?.send(JSON.stringify({ action: 'subscribe', id: SUBSCRIPTION, filter }));
    };
    socket.onmessage = (event) => onMessage(JSON.parse(String(event.data)) as LiveMessage);
    socket.onclose = () => {
      options.onStatus?.('closed');
      retry();
    };
    socket.onerror = () => undefined;
  };

  void connect();
  return {
    ready,
    close: () => {
      closed = true;
      clearTimeout(timer);
      if (socket !== undefined) socket.onclose = null;
      socket?.close(1000, 'The watch ended');
      confirm();
    },
  };
}
