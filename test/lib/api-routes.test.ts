import { routes } from '../../functions/routes';
import { API_PREFIX, type RouteDefinition } from '../../functions/shared/http/route-definition';
import { logicalIdAt, resourcePaths, sampleRoutes, synthesizeStack, type Resources } from './stack-fixture';

function methodsOf(resources: Resources) {
  const paths = resourcePaths(resources);
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::ApiGateway::Method')
    .map((resource) => ({
      method: resource.Properties.HttpMethod as string,
      path: paths.get((resource.Properties.ResourceId as { Ref: string }).Ref) ?? '?',
      properties: resource.Properties,
    }));
}

function describeRouteTable(title: string, table: readonly RouteDefinition[]) {
  describe(title, () => {
    const { stack, template } = synthesizeStack({}, { routes: table });
    const resources = template.toJSON().Resources as Resources;
    const methods = methodsOf(resources);
    const authorizerId = logicalIdAt(stack, ['Auth', 'Authorizer']);

    it.each(table.map((route) => [route.name, route] as const))('%s has its method on its resource path', (_name, route) => {
      const matches = methods.filter((m) => m.method === route.method && m.path === `${API_PREFIX}${route.path}`);
      expect(matches).toHaveLength(1);
    });

    it.each(table.map((route) => [route.name, route] as const))('%s proxies to its own function', (_name, route) => {
      const method = methods.find((m) => m.method === route.method && m.path === `${API_PREFIX}${route.path}`);
      const functionId = logicalIdAt(stack, ['Routes', route.name, 'Function']);
      expect(method?.properties.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      expect(JSON.stringify(method?.properties.Integration.Uri)).toContain(`"Fn::GetAtt":["${functionId}","Arn"]`);
    });

    it.each(table.map((route) => [route.name, route] as const))('%s is guarded as its auth says', (_name, route) => {
      const method = methods.find((m) => m.method === route.method && m.path === `${API_PREFIX}${route.path}`);
      if (route.auth === 'bearer') {
        expect(method?.properties).toMatchObject({ AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
      } else {
        expect(method?.properties.AuthorizationType).toBe('NONE');
        expect(method?.properties.AuthorizerId).toBeUndefined();
      }
    });

    it('has no method beyond the route table', () => {
      expect(methods).toHaveLength(table.length);
    });

    it('gives every route a function of its own', () => {
      const uris = methods.map((m) => JSON.stringify(m.properties.Integration.Uri));
      expect(new Set(uris).size).toBe(table.length);
    });

    it('has one REQUEST authorizer reading the Authorization header, caching its answer', () => {
      template.resourceCountIs('AWS::ApiGateway::Authorizer', 1);
      template.hasResourceProperties('AWS::ApiGateway::Authorizer', {
        Type: 'REQUEST',
        IdentitySource: 'method.request.header.Authorization',
        AuthorizerResultTtlInSeconds: 300,
      });
    });
  });
}

describeRouteTable('the route table', routes);
describeRouteTable('sample image and public routes', sampleRoutes());

