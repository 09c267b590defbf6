import type { AuthorizationRequest } from './authorization-requests';

/**
 * Evaluates authorization requests against the identity policy statements of a synthesized role,
 * the way IAM does for the operators this stack uses
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_multi-value-conditions.html):
 * a statement allows a request when it names the action, a resource pattern matches, and every
 * condition holds; `ForAllValues` holds for a request without the key, `ForAnyValue` does not,
 * `…IfExists` holds when the key is absent. An operator it does not know fails the test loudly.
 */

/** A statement of a role's identity policy, as the template has it. */
export interface RoleStatement {
  readonly Effect: string;
  readonly Action: string | string[];
  readonly Resource: unknown;
  readonly Condition?: Readonly<Record<string, Readonly<Record<string, string | string[]>>>>;
}

type Resources = Record<string, { Type: string; Properties: Record<string, any> }>;

/** The statements of every policy attached to the role with logical id `roleId`. */
export function statementsOfRole(resources: Resources, roleId: string): RoleStatement[] {
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::IAM::Policy' && JSON.stringify(resource.Properties.Roles).includes(`"${roleId}"`))
    .flatMap((resource) => resource.Properties.PolicyDocument.Statement as RoleStatement[]);
}

/**
 * A template resource as a pattern: an ARN attribute or reference becomes `<LogicalId>`, another
 * attribute `<LogicalId.Attribute>` (a table's `StreamArn` is not the table), joins are concatenated.
 */
export function resourcePattern(resource: unknown): string {
  if (typeof resource === 'string') return resource;
  const value = resource as { 'Fn::GetAtt'?: [string, string]; Ref?: string; 'Fn::Join'?: [string, unknown[]] };
  if (value['Fn::GetAtt']) {
    const [id, attribute] = value['Fn::GetAtt'];
    return attribute === 'Arn' ? `<${id}>` : `<${id}.${attribute}>`;
  }
  if (value.Ref) return value.Ref.startsWith('AWS::') ? '*' : `<${value.Ref}>`;
  if (value['Fn::Join']) return value['Fn::Join'][1].map(resourcePattern).join(value['Fn::Join'][0]);
  throw new Error(`A resource the simulator cannot read: ${JSON.stringify(resource)}`);
}

/** IAM's wildcards: `*` any run of characters, `?` one character. */
function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 's');
}

function conditionHolds(operator: string, expected: readonly string[], values: readonly string[] | undefined): boolean {
  const equals = (value: string) => expected.includes(value);
  const like = (value: string) => expected.some((pattern) => wildcard(pattern).test(value));
  switch (operator) {
    case 'StringEquals':
      return values !== undefined && values.length === 1 && equals(values[0] as string);
    case 'StringLike':
      return values !== undefined && values.length === 1 && like(values[0] as string);
    case 'StringEqualsIfExists':
      return values === undefined || (values.length === 1 && equals(values[0] as string));
    case 'ForAllValues:StringEquals':
      return (values ?? []).every(equals);
    case 'ForAllValues:StringLike':
      return (values ?? []).every(like);
    case 'ForAnyValue:StringEquals':
      return (values ?? []).some(equals);
    default:
      throw new Error(`The simulator does not know the condition operator ${operator}.`);
  }
}

/** The actions of a statement, one entry each. */
export function actionsOf(statement: RoleStatement): string[] {
  return [statement.Action].flat();
}

/** The resource patterns of a statement. */
export function resourcesOf(statement: RoleStatement): string[] {
  return [statement.Resource].flat().map(resourcePattern);
}

/** Whether `statement` allows `request`. */
export function allows(statement: RoleStatement, request: AuthorizationRequest): boolean {
  if (statement.Effect !== 'Allow' || !actionsOf(statement).includes(request.action)) return false;
  if (!resourcesOf(statement).some((pattern) => wildcard(pattern).test(request.resource))) return false;
  return Object.entries(statement.Condition ?? {}).every(([operator, keys]) =>
    Object.entries(keys).every(([key, expected]) => conditionHolds(operator, [expected].flat(), request.context[key])),
  );
}
