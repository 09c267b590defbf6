import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the Cognito user pool API on 127.0.0.1, which the real SDK client reaches through
 * its endpoint setting: AWS JSON 1.1 over HTTP (`X-Amz-Target:
 * AWSCognitoIdentityProviderService.<Operation>`), for the operations `user create` calls. Cognito
 * has no local emulator; this one keeps the logins it was asked to create, and answers a scripted
 * error or `sub` when a test asks it to.
 */

/** One request as the stand-in received it. */
export interface PoolCall {
  readonly operation: string;
  readonly body: Record<string, unknown>;
}

/** An error answer in Cognito's form: HTTP status, `__type` and message. */
export interface PoolError {
  readonly status: number;
  readonly type: string;
  readonly message: string;
}

/** The stand-in, its URL, what it received and how it answers next. */
export interface CognitoStandIn {
  readonly endpoint: string;
  readonly calls: PoolCall[];
  /** Logins by username (the email, as the pool signs in by email), each with its `sub`. */
  readonly logins: Map<string, string>;
  /** Answer the next call of `operation` with this error. */
  failNext(operation: string, error: PoolError): void;
  /** Give the next login this `sub` instead of a fresh one. */
  nextSub(sub: string): void;
  close(): Promise<void>;
}

const JSON_1_1 = 'application/x-amz-json-1.1';

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
}

/** Start a stand-in on a free port of 127.0.0.1. */
export async function startCognitoStandIn(): Promise<CognitoStandIn> {
  const calls: PoolCall[] = [];
  const logins = new Map<string, string>();
  const failures = new Map<string, PoolError>();
  const subs: string[] = [];

  const operations: Record<string, (body: Record<string, unknown>) => [number, unknown]> = {
    AdminCreateUser: (body) => {
      const username = String(body.Username);
      if (logins.has(username)) return [400, { __type: 'UsernameExistsException', message: 'An account with the given email already exists.' }];
      const sub = subs.shift() ?? randomUUID();
      logins.set(username, sub);
      const attributes = [{ Name: 'sub', Value: sub }, ...(body.UserAttributes as { Name: string; Value: string }[])];
      const now = Date.now() / 1000;
      // A pool that signs in by email names the login by its sub.
      return [200, { User: { Username: sub, Attributes: attributes, Enabled: true, UserStatus: 'FORCE_CHANGE_PASSWORD', UserCreateDate: now, UserLastModifiedDate: now } }];
    },
    AdminDeleteUser: (body) => {
      const username = [...logins].find(([, sub]) => sub === body.Username)?.[0];
      if (username === undefined) return [400, { __type: 'UserNotFoundException', message: 'User does not exist.' }];
      logins.delete(username);
      return [200, {}];
    },
  };

  const server: Server = createServer((request, response) => {
    void bodyOf(request).then((body) => {
      const operation = String(request.headers['x-amz-target'] ?? '').replace('AWSCognitoIdentityProviderService.', '');
      calls.push({ operation, body });
      const failure = failures.get(operation);
      failures.delete(operation);
      const handle = operations[operation];
      const [status, answer] = failure
        ? [failure.status, { __type: failure.type, message: failure.message }]
        : handle
          ? handle(body)
          : [400, { __type: 'UnknownOperationException', message: `The stand-in does not know ${operation}.` }];
      response.writeHead(status, { 'content-type': JSON_1_1, 'x-amzn-requestid': randomUUID() }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    logins,
    failNext: (operation, error) => failures.set(operation, error),
    nextSub: (sub) => subs.push(sub),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
