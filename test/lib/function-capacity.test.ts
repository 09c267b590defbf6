import { routes } from '../../functions/routes';
import { logicalIdAt, sampleRoutes, synthesizeStack, type Resources } from './stack-fixture';

/**
 * Concurrency (issue 16, item 5): the authorizer has concurrency reserved for it, so that a flood
 * on other functions cannot starve authentication, and each image route is capped (its reserved
 * concurrency is also its most), so that a flood of slow image fetches cannot take the account's
 * concurrency from the rest. Every other function shares the unreserved pool.
 */

const table = [...routes, ...sampleRoutes()];

function reservedConcurrency(context: Record<string, unknown> = {}) {
  const { stack, template } = synthesizeStack(context, { routes: table });
  const resources = template.toJSON().Resources as Resources;
  return (path: readonly string[]): unknown => resources[logicalIdAt(stack, path)]?.Properties.ReservedConcurrentExecutions;
}

const imageRoutes = table.filter((route) => route.image === true);
const otherRoutes = table.filter((route) => route.image !== true);

describe('function concurrency by default', () => {
  const reserved = reservedConcurrency();

  it('reserves 10 concurrent executions for the authorizer', () => {
    expect(reserved(['Auth', 'AuthorizerFunction', 'Function'])).toBe(10);
  });

  it('has image routes to cap', () => {
    expect(imageRoutes.map((route) => route.name)).toEqual(expect.arrayContaining(['uploadCurrentAvatar', 'uploadUserAvatar']));
  });

  it.each(imageRoutes.map((route) => [route.name]))('caps the image route %s at 10 concurrent executions', (name) => {
    expect(reserved(['Routes', name, 'Function'])).toBe(10);
  });

  it.each(otherRoutes.map((route) => [route.name]))('leaves %s in the shared pool', (name) => {
    expect(reserved(['Routes', name, 'Function'])).toBeUndefined();
  });

  it('leaves the scheduled reconciler in the shared pool', () => {
    expect(reserved(['Background', 'reconcileAvatarObjects', 'Function'])).toBeUndefined();
  });
});

describe('function concurrency from the settings', () => {
  const reserved = reservedConcurrency({ authorizerConcurrency: '40', imageRouteConcurrency: '3' });

  it('reserves authorizerConcurrency for the authorizer and caps each image route at imageRouteConcurrency', () => {
    expect(reserved(['Auth', 'AuthorizerFunction', 'Function'])).toBe(40);
    for (const route of imageRoutes) expect(reserved(['Routes', route.name, 'Function'])).toBe(3);
  });
});
