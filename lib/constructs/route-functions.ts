import { Construct } from 'constructs';
import { API_PREFIX, type RouteDefinition } from '../../functions/shared/http/route-definition';
import { routeGrants } from '../../functions/shared/deployment/route-grants';
import { grantFunctionData, type GrantableData } from '../data-grants';
import { signsListCursors } from './cursor-signing-key';
import { ServiceFunction } from './service-function';

/** Properties of {@link RouteFunctions}. */
export interface RouteFunctionsProps {
  /** The route table. */
  readonly routes: readonly RouteDefinition[];
  /** Environment every function shares (table and bucket names, logging, metrics). */
  readonly environment: Readonly<Record<string, string>>;
  /** Added to the environment of the routes that sign list cursors: the signing key. */
  readonly cursorEnvironment: Readonly<Record<string, string>>;
  readonly logRetentionDays: number;
  readonly data: GrantableData;
  /**
   * Concurrent executions of each image route, reserved and at most: a flood of slow image fetches
   * cannot take the account's concurrency from the other functions.
   */
  readonly imageRouteConcurrency: number;
}

/** A route with the function that serves it. */
export interface RouteFunction {
  readonly route: RouteDefinition;
  readonly handler: ServiceFunction;
}

/**
 * One function per route of the route table, each granted exactly the data its route names; the
 * list routes also get the cursor key, the image routes a concurrency cap.
 */
export class RouteFunctions extends Construct {
  public readonly functions: readonly RouteFunction[];

  public constructor(scope: Construct, id: string, props: RouteFunctionsProps) {
    super(scope, id);
    this.functions = props.routes.map((route) => {
      const handler = new ServiceFunction(this, route.name, {
        handlerModule: route.handler,
        description: `${route.method} ${API_PREFIX}${route.path}`,
        image: route.image === true,
        idempotencyKey: route.idempotencyKey === true,
        invokedBy: 'api',
        environment: signsListCursors(route) ? { ...props.environment, ...props.cursorEnvironment } : props.environment,
        logRetentionDays: props.logRetentionDays,
        ...(route.image === true ? { reservedConcurrency: props.imageRouteConcurrency } : {}),
      });
      grantFunctionData(handler.role, routeGrants(route), props.data);
      return { route, handler };
    });
  }
}
