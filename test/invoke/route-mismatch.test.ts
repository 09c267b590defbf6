import { routeNamed } from '../../functions/routes';
import { routeMismatch } from '../../local/invoke/run-function';
import type { ProxyEvent } from '../../local/invoke/event-shape';

function event(httpMethod: string, resource: string): ProxyEvent {
  return { httpMethod, resource } as ProxyEvent;
}

describe('routeMismatch', () => {
  it('accepts an event of the route, with or without the API prefix in its resource', () => {
    expect(routeMismatch(routeNamed('getCurrentUser'), event('GET', '/frontend/api/v1/user/current'))).toBeUndefined();
    expect(routeMismatch(routeNamed('getCurrentUser'), event('GET', '/user/current'))).toBeUndefined();
  });

  it('names the function an event of another route is for', () => {
    expect(routeMismatch(routeNamed('getCurrentUser'), event('PUT', '/frontend/api/v1/user/current'))).toBe(
      'warning: the event is PUT /frontend/api/v1/user/current, but getCurrentUser serves GET /frontend/api/v1/user/current (it is an event for updateCurrentUser); running it anyway.',
    );
  });

  it('says when no function serves the event', () => {
    expect(routeMismatch(routeNamed('getUser'), event('PATCH', '/frontend/api/v1/nowhere'))).toMatch(/\(no function serves it\); running it anyway\.$/);
  });
});
