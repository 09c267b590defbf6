import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { GATEWAY_RESPONSE_TYPES, gatewayProblem, type GatewayResponseType } from '../functions/shared/http/gateway-problems';
import { PROBLEM_MEDIA_TYPE } from '../functions/shared/http/problem-catalog';
import { edgeCorsHeaders } from './gateway-cors-headers';

/**
 * Renders the gateway problems of `functions/shared/http/gateway-problems.ts` as API Gateway gateway responses: a body
 * template under both JSON media types, the problem's headers, and CORS headers when the API has
 * browser origins (a frontend must be able to read a 401 to know it should refresh its token).
 */

/** Header values in API Gateway's mapping syntax: a quoted literal or a request reference. */
function literal(value: string): string {
  return `'${value}'`;
}

function corsHeaders(corsOrigins: readonly string[]): Record<string, string> {
  const cors = edgeCorsHeaders(corsOrigins);
  if (cors === undefined) return {};
  // One origin (or *) is a literal; several cannot be chosen from in a gateway response (its
  // templates are not run through VTL), so the request's Origin is echoed: these bodies are fixed
  // texts that reveal nothing about any user (DESIGN.md 5a). The local gateway does the same.
  return {
    'Access-Control-Allow-Origin': cors.allowOrigin.kind === 'fixed' ? literal(cors.allowOrigin.value) : 'method.request.header.Origin',
    ...Object.fromEntries(Object.entries(cors.headers).map(([name, value]) => [name, literal(value)])),
  };
}

/** The gateway response of one type, as `RestApi.addGatewayResponse` takes it. */
export function gatewayResponseOptions(type: GatewayResponseType, corsOrigins: readonly string[]): apigateway.GatewayResponseOptions {
  const problem = gatewayProblem(type);
  const body = JSON.stringify(problem.body);
  const headers: Record<string, string> = {
    'Content-Type': literal(PROBLEM_MEDIA_TYPE),
    ...Object.fromEntries(Object.entries(problem.headers).map(([name, value]) => [name, literal(value)])),
    ...corsHeaders(corsOrigins),
  };
  return {
    type: apigateway.ResponseType.of(type),
    statusCode: String(problem.status),
    responseHeaders: headers,
    // API Gateway picks the template by the request's Accept header, falling back to application/json.
    templates: { 'application/json': body, [PROBLEM_MEDIA_TYPE]: body },
  };
}

/** Customises every gateway response of an API to its problem. */
export function addProblemGatewayResponses(api: apigateway.RestApi, corsOrigins: readonly string[]): void {
  for (const type of GATEWAY_RESPONSE_TYPES) {
    api.addGatewayResponse(`Problem${type}`, gatewayResponseOptions(type, corsOrigins));
  }
}
