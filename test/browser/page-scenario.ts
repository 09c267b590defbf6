import { postFile, signIn, type Problem, type UploadContentType } from '../../clients/web/src/index.js';

/**
 * The script of the test page (bundled for the browser): what a frontend on another origin does
 * with the API through the typed client, every call a real `fetch` of the browser. It reports
 * what the page could read: statuses, bodies, and the headers CORS exposes.
 */

/** What the test hands the page. */
export interface ScenarioInput {
  readonly apiBaseUrl: string;
  readonly token: string;
  readonly imageUrl: string;
  readonly ownerId: number;
  readonly subId: number;
}

function problemOf(error: unknown): Problem | undefined {
  return typeof error === 'object' && error !== null ? (error as Problem) : undefined;
}

/** Read, update with If-Match (fresh and stale), list, upload, list the log, and fail to authenticate. */
async function runScenario(input: ScenarioInput) {
  const api = signIn(input.apiBaseUrl, input.token);
  const read = await api.currentUser();
  const etag = read.response.headers.get('ETag') ?? '';
  const updated = await api.updateProfile({ 'last-name': 'Lovelace' }, etag);
  const stale = await api.updateProfile({ 'last-name': 'Byron' }, etag);
  const users = await api.listUsers({ role: ['user', 'sub'], status: ['active'], sort: { field: 'email', order: 'desc' }, pagination: { limit: 5 } });
  const avatar = await api.uploadAvatar({ avatar: input.imageUrl, crop: { left: 0, top: 0, size: 32 } });
  const log = await api.mediaLog({ status: ['success', 'error'], 'user-id': [input.ownerId, input.subId], pagination: { limit: 100 } });
  const stranger = await signIn(input.apiBaseUrl, 'not.a.token').currentUser();
  return {
    read: { status: read.response.status, etag, email: read.data?.email },
    updated: { status: updated.response.status, etag: updated.response.headers.get('ETag'), lastName: updated.data?.['last-name'] },
    stale: { status: stale.response.status, problem: problemOf(stale.error) },
    users: { status: users.response.status, roles: users.data?.users.map((user) => user.role), sort: users.data?.sort, filter: users.data?.filter },
    avatar: { status: avatar.response.status, enabled: avatar.data?.avatar.enabled },
    log: {
      status: log.response.status,
      statuses: [...new Set((log.data?.log ?? []).map((entry) => entry.status))].sort(),
      userIds: [...new Set((log.data?.log ?? []).map((entry) => entry['user-id']))].sort(),
      total: log.data?.pagination.total,
    },
    unauthorized: { status: stranger.response.status, problem: problemOf(stranger.error), wwwAuthenticate: stranger.response.headers.get('WWW-Authenticate') },
  };
}

/** One read, from a page whose origin the API may refuse: `read` or the browser's error. */
async function tryRead(input: Pick<ScenarioInput, 'apiBaseUrl' | 'token'>): Promise<string> {
  try {
    const read = await signIn(input.apiBaseUrl, input.token).currentUser();
    return `read ${read.response.status}`;
  } catch (error) {
    return `blocked: ${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** The few DOM parts the page uses (the project's type check has Node's globals, not the DOM's). */
interface BrowserPage {
  readonly document: { getElementById(id: string): { readonly files?: ArrayLike<Blob> | null } | null };
  readonly Image: new () => { onload: (() => void) | null; onerror: (() => void) | null; src: string; readonly naturalWidth: number; readonly naturalHeight: number };
}

/**
 * An avatar from the file the user picked in the page's `<input type=file>`: an upload form, the
 * file posted straight to storage, the crop endpoint with the form's source, and the new avatar
 * shown in an `<img>` (a plain image load, as a frontend would show it).
 */
async function avatarFromFile(input: Pick<ScenarioInput, 'apiBaseUrl' | 'token'>) {
  const { document, Image } = globalThis as unknown as BrowserPage;
  const file = document.getElementById('avatar-file')?.files?.[0];
  if (!file) throw new Error('No file was picked.');
  const api = signIn(input.apiBaseUrl, input.token);
  const form = await api.uploadForm(file.type as UploadContentType);
  if (!form.data) return { form: form.response.status };
  const stored = await postFile(form.data, file);
  const avatar = await api.uploadAvatar({ avatar: form.data.source, crop: { left: 0, top: 0, size: 32 } });
  const url = avatar.data?.avatar.url;
  const shown = await new Promise<{ width: number; height: number } | string>((resolve) => {
    if (!url) return resolve('no avatar');
    const image = new Image();
    image.onload = () => resolve({ width: image.naturalWidth, height: image.naturalHeight });
    image.onerror = () => resolve('the avatar did not load');
    image.src = url;
  });
  return { form: form.response.status, stored: stored.status, avatar: avatar.response.status, url, shown };
}

/** What the page's scenario reports. */
export type ScenarioReport = Awaited<ReturnType<typeof runScenario>>;

/** What the page reports of an avatar from a file. */
export type FileAvatarReport = Awaited<ReturnType<typeof avatarFromFile>>;

Object.assign(globalThis, { runScenario, tryRead, avatarFromFile });
