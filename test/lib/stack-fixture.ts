import { readFileSync } from 'node:fs';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { serviceFunctions } from '../../functions/deployed-functions';
import type { DeployedFunction } from '../../functions/shared/deployment/function-definitions';
import { routeNamed, routes } from '../../functions/routes';
import { type RouteDefinition } from '../../functions/shared/http/route-definition';
import { resourceId, type TableDefinition } from '../../functions/shared/tables/index';
import { createFrontendApiApp, type FrontendApiApp } from '../../lib/frontend-api-app';
import type { FrontendApiStack, FrontendApiStackProps } from '../../lib/frontend-api-stack';

/**
 * Synthesizes the real app for a test: the feature flags of cdk.json (so tests see the template
 * `cdk synth` produces), bundling skipped, and the WebAssembly CloudFormation validator off for speed.
 * cdk-nag still runs: any unacknowledged finding fails the synth, in every test.
 */

const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as { context: Record<string, unknown> };

/** A synthesized app with its stack's template. */
export interface SynthesizedStack extends FrontendApiApp {
  readonly template: Template;
}

/** Synthesizes the app with extra context (`-c` values) and, optionally, a different route table. */
export function synthesizeStack(
  context: Record<string, unknown> = {},
  overrides: Pick<FrontendApiStackProps, 'tables'> & { readonly routes?: readonly RouteDefinition[] } = {},
): SynthesizedStack {
  process.env.CDK_VALIDATION = 'false';
  // A different route table replaces the route functions; the authorizer and the others stay.
  const functions = overrides.routes && { ...serviceFunctions, routes: overrides.routes };
  const built = createFrontendApiApp(
    { context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...context } },
    { ...(overrides.tables ? { tables: overrides.tables } : {}), ...(functions ? { functions } : {}) },
  );
  return { ...built, template: Template.fromStack(built.stack) };
}

/** The logical id of the CloudFormation resource under a construct path (`['Routes', 'getUser', 'Role']`). */
export function logicalIdAt(stack: FrontendApiStack, path: readonly string[]): string {
  let construct = stack.node.findChild(path[0] ?? '');
  for (const id of path.slice(1)) construct = construct.node.findChild(id);
  const resource = (construct.node.defaultChild ?? construct) as CfnElement;
  return stack.getLogicalId(resource);
}

/** The logical id of a table of the one table definition (its resource id: the definition id and its layout). */
export function tableLogicalId(stack: FrontendApiStack, definition: Pick<TableDefinition, 'id' | 'layout'>): string {
  return logicalIdAt(stack, ['Data', resourceId(definition)]);
}

/** The construct path of a deployed function (`['Routes', 'getUser']`); its role is under `Role`, its Lambda function under `Function`. */
export function functionPath(fn: DeployedFunction): string[] {
  switch (fn.kind) {
    case 'route':
      return ['Routes', fn.name];
    case 'authorizer':
      return ['Auth', 'AuthorizerFunction'];
    case 'schedule':
      return ['Background', fn.name];
    case 'queue':
      return ['Feed', fn.name];
    case 'stream':
      return ['Streams', fn.name];
    case 'websocket':
      return ['Live', fn.name];
  }
}

/**
 * Routes that exercise what the route table may not have yet: an image route that writes avatars
 * and a public route. They reuse an existing route's handler and contract (the image route the
 * grants of an avatar upload); only their method, path, auth and image flag are made up.
 */
export function sampleRoutes(): RouteDefinition[] {
  const base: RouteDefinition | undefined = routes[0];
  if (!base) throw new Error('The route table is empty.');
  return [
    { ...base, name: 'sampleImageRoute', method: 'POST', path: '/sample/{sample-id}/image', auth: 'bearer', grants: routeNamed('uploadCurrentAvatar').grants, image: true },
    { ...base, name: 'samplePublicRoute', method: 'GET', path: '/sample/public', auth: 'none', grants: {} },
  ];
}

/** The `Resources` section of a synthesized template. */
export type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

/** Full path of every API Gateway resource, rebuilt from PathPart and ParentId. */
export function resourcePaths(resources: Resources): Map<string, string> {
  const paths = new Map<string, string>();
  const pathOf = (id: string): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const resource = resources[id];
    // The parent of a top-level resource is the API's root resource (a GetAtt, not a Ref).
    if (!resource || resource.Type !== 'AWS::ApiGateway::Resource') return '';
    const parent = resource.Properties.ParentId as { Ref?: string };
    const path = `${parent.Ref ? pathOf(parent.Ref) : ''}/${resource.Properties.PathPart as string}`;
    paths.set(id, path);
    return path;
  };
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type === 'AWS::ApiGateway::Resource') pathOf(id);
  }
  return paths;
}
