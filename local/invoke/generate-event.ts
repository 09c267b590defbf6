import { API_PREFIX } from '../../functions/shared/http/route-definition';
import { UsageError } from '../cli/cli-errors';
import { buildProxyEvent, type LocalRequest } from '../gateway/proxy-event';
import { matchRoute } from '../gateway/route-matcher';
import type { ProxyEvent } from './event-shape';

/** What `--generate-event` was asked for. */
export interface EventRequest {
  /** `METHOD PATH[?QUERY]`, PATH with or without the API prefix. */
  readonly line: string;
  readonly body?: string;
  /** `Name: value` strings, in order. */
  readonly headers: readonly string[];
}

/** The request a `--generate-event` line describes, as the gateway would receive it. */
export function requestFromLine(request: EventRequest): LocalRequest {
  const match = /^\s*([A-Za-z]+)\s+(\S+)\s*$/.exec(request.line);
  if (!match) throw new UsageError(`expected 'METHOD PATH[?QUERY]', got '${request.line}'.`);
  const [, method, target] = match as unknown as [string, string, string];
  const queryAt = target.indexOf('?');
  const rawPath = queryAt === -1 ? target : target.slice(0, queryAt);
  const path = rawPath.startsWith(API_PREFIX) ? rawPath : `${API_PREFIX}${rawPath.startsWith('/') ? '' : '/'}${rawPath}`;
  const headers: [string, string][] = request.headers.map((header) => {
    const colon = header.indexOf(':');
    if (colon < 1) throw new UsageError(`a header is 'Name: value', got '${header}'.`);
    return [header.slice(0, colon).trim(), header.slice(colon + 1).trim()];
  });
  if (request.body !== undefined && !headers.some(([name]) => name.toLowerCase() === 'content-type')) {
    headers.push(['Content-Type', 'application/json']);
  }
  return {
    method: method.toUpperCase(),
    path,
    rawQuery: queryAt === -1 ? '' : target.slice(queryAt + 1),
    headers,
    body: Buffer.from(request.body ?? ''),
    sourceIp: '127.0.0.1',
  };
}

/** The proxy event the local gateway would build for the request (no authorizer context yet). */
export function generateEvent(request: LocalRequest): ProxyEvent {
  const match = matchRoute(request.method, request.path);
  if (!match) throw new UsageError(`no route matches ${request.method} ${request.path} (see --list).`);
  return buildProxyEvent(request, match, null);
}
