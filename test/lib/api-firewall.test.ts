import { PROBLEM_MEDIA_TYPE } from '../../functions/shared/http/problem-catalog';
import { FIREWALL_RULES, RATE_WINDOW_SECONDS } from '../../lib/constructs/api-firewall';
import { logicalIdAt, synthesizeStack, type Resources } from './stack-fixture';

/**
 * Per-client limits (issue 16, item 5): a WAF web ACL on the API stage with a rate-based rule per
 * source address and one per bearer token, each answering exactly as the stage throttle does: the
 * same 429 problem body, the same Retry-After and, where a static header can, the same CORS headers.
 */

type Rule = {
  Name: string;
  Priority: number;
  Statement: { RateBasedStatement: { Limit: number; EvaluationWindowSec: number; AggregateKeyType: string; CustomKeys?: { Header: { Name: string; TextTransformations: { Priority: number; Type: string }[] } }[] } };
  Action: { Block: { CustomResponse: { ResponseCode: number; CustomResponseBodyKey: string; ResponseHeaders: { Name: string; Value: string }[] } } };
};

type WebAcl = {
  Scope: string;
  DefaultAction: unknown;
  Rules: Rule[];
  CustomResponseBodies: Record<string, { ContentType: string; Content: string }>;
};

function firewallOf(context: Record<string, unknown> = {}) {
  const { stack, template } = synthesizeStack(context);
  const resources = template.toJSON().Resources as Resources;
  const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
  const acls = ofType('AWS::WAFv2::WebACL');
  const [aclId, acl] = acls[0] ?? [];
  const throttled = ofType('AWS::ApiGateway::GatewayResponse').map(([, resource]) => resource.Properties).find((properties) => properties.ResponseType === 'THROTTLED');
  const rule = (name: string): Rule => {
    const found = (acl?.Properties as WebAcl).Rules.find((candidate) => candidate.Name === name);
    if (!found) throw new Error(`No rule ${name}.`);
    return found;
  };
  /** The headers of a blocked request, by name. */
  const blockHeaders = (name: string) => Object.fromEntries(rule(name).Action.Block.CustomResponse.ResponseHeaders.map(({ Name, Value }) => [Name, Value]));
  /** A gateway response header's literal value, without the mapping syntax's quotes. */
  const throttledHeader = (name: string) => String(throttled?.ResponseParameters[`gatewayresponse.header.${name}`]).replace(/^'(.*)'$/, '$1');
  return { stack, acls, aclId, acl: acl?.Properties as WebAcl, associations: ofType('AWS::WAFv2::WebACLAssociation'), throttled, rule, blockHeaders, throttledHeader };
}

describe('the API firewall', () => {
  const firewall = firewallOf();

  it('is one regional web ACL that lets through what no rule blocks', () => {
    expect(firewall.acls).toHaveLength(1);
    expect(firewall.acl).toMatchObject({ Scope: 'REGIONAL', DefaultAction: { Allow: {} } });
  });

  it('guards the API stage, and nothing else', () => {
    const stageId = logicalIdAt(firewall.stack, ['Api', 'RestApi', 'DeploymentStage.prod']);
    const apiId = logicalIdAt(firewall.stack, ['Api', 'RestApi']);
    expect(firewall.associations).toHaveLength(1);
    const association = firewall.associations[0]?.[1].Properties;
    expect(association?.WebACLArn).toEqual({ 'Fn::GetAtt': [firewall.aclId, 'Arn'] });
    expect(association?.ResourceArn).toEqual({
      'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':apigateway:', { Ref: 'AWS::Region' }, '::/restapis/', { Ref: apiId }, '/stages/', { Ref: stageId }]],
    });
  });

  it('limits each source address and each bearer token per minute, the address first', () => {
    expect(firewall.acl.Rules.map((rule) => [rule.Name, rule.Priority])).toEqual([
      [FIREWALL_RULES.perSourceIp, 0],
      [FIREWALL_RULES.perBearerToken, 1],
    ]);
    expect(firewall.rule(FIREWALL_RULES.perSourceIp).Statement.RateBasedStatement).toEqual({ Limit: 600, EvaluationWindowSec: RATE_WINDOW_SECONDS, AggregateKeyType: 'IP' });
    expect(firewall.rule(FIREWALL_RULES.perBearerToken).Statement.RateBasedStatement).toEqual({
      Limit: 300,
      EvaluationWindowSec: RATE_WINDOW_SECONDS,
      AggregateKeyType: 'CUSTOM_KEYS',
      CustomKeys: [{ Header: { Name: 'authorization', TextTransformations: [{ Priority: 0, Type: 'COMPRESS_WHITE_SPACE' }, { Priority: 1, Type: 'LOWERCASE' }] } }],
    });
    expect(RATE_WINDOW_SECONDS).toBe(60);
  });

  it('counts one token once however its header is spelled: the key is white space compressed, then lowercased', () => {
    const transformations = firewall.rule(FIREWALL_RULES.perBearerToken).Statement.RateBasedStatement.CustomKeys?.[0]?.Header.TextTransformations ?? [];
    // What WAF does with each type (API_TextTransformation.html), applied in priority order.
    const apply: Record<string, (value: string) => string> = {
      COMPRESS_WHITE_SPACE: (value) => value.replace(/[\t\n\v\f\r \u00a0]+/g, ' '),
      LOWERCASE: (value) => value.toLowerCase(),
    };
    const key = (header: string): string =>
      [...transformations].sort((a, b) => a.Priority - b.Priority).reduce((value, step) => {
        const transform = apply[step.Type];
        if (!transform) throw new Error(`unexpected transformation ${step.Type}`);
        return transform(value);
      }, header);
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl';
    const spellings = [`Bearer ${token}`, `bearer ${token}`, `BEARER ${token}`, `Bearer    ${token}`, `bEaReR\t${token}`];
    expect(new Set(spellings.map(key)).size).toBe(1);
  });

  it.each(Object.values(FIREWALL_RULES))('%s answers with the status, body and Retry-After of the stage throttle', (name) => {
    const response = firewall.rule(name).Action.Block.CustomResponse;
    const body = firewall.acl.CustomResponseBodies[response.CustomResponseBodyKey];

    expect(response.ResponseCode).toBe(Number(firewall.throttled?.StatusCode));
    expect(response.ResponseCode).toBe(429);
    expect(body?.ContentType).toBe('APPLICATION_JSON');
    expect(JSON.parse(body?.Content ?? 'null')).toEqual(JSON.parse(firewall.throttled?.ResponseTemplates[PROBLEM_MEDIA_TYPE]));
    expect(firewall.blockHeaders(name)).toEqual({ 'Retry-After': firewall.throttledHeader('Retry-After') });
  });

  it('takes its limits from the settings', () => {
    const tuned = firewallOf({ ipRateLimit: '1200', tokenRateLimit: '90' });
    expect(tuned.rule(FIREWALL_RULES.perSourceIp).Statement.RateBasedStatement.Limit).toBe(1200);
    expect(tuned.rule(FIREWALL_RULES.perBearerToken).Statement.RateBasedStatement.Limit).toBe(90);
  });
});

describe('the API firewall with CORS origins', () => {
  it.each([['one origin', 'https://app.example.com'], ['any origin', '*']])('adds the CORS headers of the stage throttle for %s', (_, corsOrigins) => {
    const firewall = firewallOf({ corsOrigins });
    for (const name of Object.values(FIREWALL_RULES)) {
      expect(firewall.blockHeaders(name)).toEqual({
        'Retry-After': firewall.throttledHeader('Retry-After'),
        'Access-Control-Allow-Origin': firewall.throttledHeader('Access-Control-Allow-Origin'),
        'Access-Control-Expose-Headers': firewall.throttledHeader('Access-Control-Expose-Headers'),
        Vary: firewall.throttledHeader('Vary'),
      });
      expect(firewall.blockHeaders(name)['Access-Control-Allow-Origin']).toBe(corsOrigins);
    }
  });

  it('names no origin with several: a static answer cannot echo the request\'s', () => {
    const firewall = firewallOf({ corsOrigins: 'https://app.example.com,https://admin.example.com' });
    for (const name of Object.values(FIREWALL_RULES)) {
      expect(Object.keys(firewall.blockHeaders(name))).toEqual(['Retry-After']);
    }
  });
});
