import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent } from 'aws-lambda';
import { authorizerFunction } from '../../functions/auth/authorizer-function';
import { buildAuthorizerEvent } from './proxy-event';
import { lambdaContext } from './lambda-context';
import { invokeIsolated } from './local-invocation';

/** What API Gateway makes of an authorizer's answer. */
export type AuthorizerOutcome =
  | { readonly kind: 'allow'; readonly context: Record<string, string | number | boolean> }
  | { readonly kind: 'deny' }
  | { readonly kind: 'unauthorized' };

type AuthorizerHandler = (event: ReturnType<typeof buildAuthorizerEvent>, context: unknown) => Promise<APIGatewayAuthorizerResult>;

/** Load the authorizer module named in the route table. */
export async function loadAuthorizer(): Promise<AuthorizerHandler> {
  const module = (await import(`../../${authorizerFunction.handler}`)) as { handler: AuthorizerHandler };
  return module.handler;
}

function outcomeOf(result: APIGatewayAuthorizerResult): AuthorizerOutcome {
  const statements = result.policyDocument?.Statement ?? [];
  const allowed = statements.length > 0 && statements.every((statement) => statement.Effect === 'Allow');
  return allowed ? { kind: 'allow', context: { ...(result.context ?? {}) } as Record<string, string | number | boolean> } : { kind: 'deny' };
}

/**
 * Runs the REQUEST authorizer as API Gateway does: identity source the Authorization header (no
 * header: 401 without calling it), `Unauthorized` thrown → 401, a Deny → 403, and the answer cached
 * per header value for `ttlSeconds` and reused on every route.
 */
export class AuthorizerRunner {
  private readonly cache = new Map<string, { outcome: AuthorizerOutcome; expires: number }>();

  public constructor(
    private readonly handler: AuthorizerHandler,
    private readonly ttlSeconds = 300,
  ) {}

  /** The outcome for a proxy event about to be dispatched. */
  public async authorize(event: APIGatewayProxyEvent): Promise<AuthorizerOutcome> {
    const authorization = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    if (!authorization) return { kind: 'unauthorized' };
    const cached = this.cache.get(authorization);
    if (cached && cached.expires > Date.now()) return cached.outcome;
    const outcome = await this.invoke(event);
    if (this.ttlSeconds > 0) this.cache.set(authorization, { outcome, expires: Date.now() + this.ttlSeconds * 1000 });
    return outcome;
  }

  private async invoke(event: APIGatewayProxyEvent): Promise<AuthorizerOutcome> {
    try {
      return outcomeOf(await invokeIsolated(this.handler, buildAuthorizerEvent(event), lambdaContext(authorizerFunction.name, 10_000)));
    } catch (error) {
      if (error instanceof Error && error.message === 'Unauthorized') return { kind: 'unauthorized' };
      throw error;
    }
  }

  /** Forget cached answers (API Gateway's cache flush). */
  public flush(): void {
    this.cache.clear();
  }
}
