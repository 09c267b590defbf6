import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { gatewayProblem } from '../../functions/shared/http/gateway-problems';
import { edgeCorsHeaders } from '../gateway-cors-headers';

/** Properties of {@link ApiFirewall}. */
export interface ApiFirewallProps {
  /** The stage the web ACL guards. */
  readonly stage: apigateway.Stage;
  /** Requests per minute from one source IP address. */
  readonly ipRateLimit: number;
  /** Requests per minute with one bearer token. */
  readonly tokenRateLimit: number;
  readonly corsOrigins: readonly string[];
}

/**
 * Seconds over which WAF counts a client's requests: the shortest window it offers (60, 120, 300
 * or 600), so that a client is let through again soon after it slows down. WAF checks the rates
 * about every 10 seconds.
 */
export const RATE_WINDOW_SECONDS = 60;

/** Key of the one custom response body of the web ACL: the throttled problem. */
const THROTTLED_BODY_KEY = 'throttled-problem';

/**
 * How the per-token rule normalizes the Authorization header before counting it: one token is one
 * client however its header is spelled (DESIGN 3). Runs of white space become one space, then the
 * whole value is lowercased, so `Bearer  t`, `bearer t` and `BEARER t` share one count. The
 * authorizer refuses every spelling but the canonical one (token-spelling.ts), so a variant buys
 * nothing but 401s, and these count against the token's limit too. Re-spellings of the token itself,
 * which no text transformation can merge (base64url padding, other unused low bits), are refused
 * the same way: each is a WAF key of its own, but only ever to 401s. Lowercasing could only merge
 * two tokens that differ in letter case alone, which no two validly signed tokens do.
 * https://docs.aws.amazon.com/waf/latest/APIReference/API_RateLimitHeader.html
 */
export const TOKEN_KEY_TRANSFORMATIONS = [
  { priority: 0, type: 'COMPRESS_WHITE_SPACE' },
  { priority: 1, type: 'LOWERCASE' },
] as const satisfies readonly wafv2.CfnWebACL.TextTransformationProperty[];

/** The names of the web ACL's rules, which are also their CloudWatch metric names. */
export const FIREWALL_RULES = { perSourceIp: 'PerSourceIp', perBearerToken: 'PerBearerToken' } as const;

/**
 * The response headers of a blocked request: the throttled problem's (`Retry-After`) and, when the
 * stack has exactly one origin or `*`, its CORS headers. WAF's custom responses are static (no
 * request header can be echoed) and may not set `Content-Type`, which WAF derives from the body's
 * content type: `application/json`, as the problem+json media type is not among WAF's choices
 * (https://docs.aws.amazon.com/waf/latest/APIReference/API_CustomResponseBody.html). With several
 * origins the 429 carries no CORS header: a browser then sees a failed request, not the problem.
 */
function blockedResponseHeaders(corsOrigins: readonly string[]): wafv2.CfnWebACL.CustomHTTPHeaderProperty[] {
  const cors = edgeCorsHeaders(corsOrigins);
  const headers: Record<string, string> = {
    ...gatewayProblem('THROTTLED').headers,
    ...(cors?.allowOrigin.kind === 'fixed' ? { 'Access-Control-Allow-Origin': cors.allowOrigin.value, ...cors.headers } : {}),
  };
  return Object.entries(headers).map(([name, value]) => ({ name, value }));
}

/** A rate-based rule blocking with the throttled problem once one aggregation key goes over `limit`. */
function rateRule(
  name: string,
  priority: number,
  limit: number,
  key: Pick<wafv2.CfnWebACL.RateBasedStatementProperty, 'aggregateKeyType' | 'customKeys'>,
  corsOrigins: readonly string[],
): wafv2.CfnWebACL.RuleProperty {
  return {
    name,
    priority,
    statement: { rateBasedStatement: { limit, evaluationWindowSec: RATE_WINDOW_SECONDS, ...key } },
    action: {
      block: {
        customResponse: {
          responseCode: gatewayProblem('THROTTLED').status,
          customResponseBodyKey: THROTTLED_BODY_KEY,
          responseHeaders: blockedResponseHeaders(corsOrigins),
        },
      },
    },
    visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: name, sampledRequestsEnabled: true },
  };
}

/**
 * Per-client limits in front of the stage: a WAF web ACL with one rate-based rule per source IP
 * address and one per bearer token (the Authorization header; a request without one is counted by
 * its address only, https://docs.aws.amazon.com/waf/latest/APIReference/API_RateBasedStatementCustomKey.html).
 * The stage's own throttle caps everyone together; these keep one client from taking all of it.
 * A blocked request gets the very problem body and `Retry-After` of the stage throttle (429):
 * custom responses of WAF take precedence over API Gateway's gateway responses
 * (https://docs.aws.amazon.com/waf/latest/developerguide/customizing-the-response-for-blocked-requests.html).
 */
export class ApiFirewall extends Construct {
  public readonly webAcl: wafv2.CfnWebACL;

  public constructor(scope: Construct, id: string, props: ApiFirewallProps) {
    super(scope, id);
    const { corsOrigins } = props;
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      description: 'Per-client request limits of the Frontend API',
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      customResponseBodies: {
        [THROTTLED_BODY_KEY]: { contentType: 'APPLICATION_JSON', content: JSON.stringify(gatewayProblem('THROTTLED').body) },
      },
      rules: [
        rateRule(FIREWALL_RULES.perSourceIp, 0, props.ipRateLimit, { aggregateKeyType: 'IP' }, corsOrigins),
        rateRule(
          FIREWALL_RULES.perBearerToken,
          1,
          props.tokenRateLimit,
          { aggregateKeyType: 'CUSTOM_KEYS', customKeys: [{ header: { name: 'authorization', textTransformations: [...TOKEN_KEY_TRANSFORMATIONS] } }] },
          corsOrigins,
        ),
      ],
      visibilityConfig: { cloudWatchMetricsEnabled: true, metricName: 'FrontendApiFirewall', sampledRequestsEnabled: true },
    });
    new wafv2.CfnWebACLAssociation(this, 'StageAssociation', { resourceArn: props.stage.stageArn, webAclArn: this.webAcl.attrArn });
  }
}
