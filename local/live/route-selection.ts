/**
 * Route selection of a WebSocket API with the expression `$request.body.action`
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/websocket-api-develop-routes.html):
 * a JSON message whose `action` names a route goes to that route; anything else (not JSON, no
 * `action`, an action no route has, a binary frame) goes to `$default`.
 */

/** The route key a message selects among the API's `routeKeys`. */
export function selectRoute(data: Buffer, isBinary: boolean, routeKeys: readonly string[]): string {
  if (isBinary) return '$default';
  let action: unknown;
  try {
    action = (JSON.parse(data.toString('utf8')) as { action?: unknown } | null)?.action;
  } catch {
    return '$default';
  }
  // The predefined keys are never selected by a message.
  return typeof action === 'string' && !action.startsWith('$') && routeKeys.includes(action) ? action : '$default';
}
