import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { synthesizeStack } from './stack-fixture';

/**
 * The cdk-nag acknowledgements about authentication say what the code does (DESIGN.md sections 2
 * and 3, test/auth/revocation.test.ts): the authorizer checks the token and allows a known user
 * whatever its status, its answer is cached per token, and the routes refuse a caller who is not
 * active from its stored profile, read in the request. No acknowledgement may claim that the
 * authorizer (or its cached answer) checks a user's status.
 */

const { stack } = synthesizeStack();

/** The reason given for acknowledging `id` on `scope`. */
function acknowledgement(scope: IConstruct, id: string): string {
  // Each acknowledgement is one metadata entry `{ <qualified id>: reason }`; the id may carry the plugin's namespace.
  const entries = scope.node.metadata.filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY);
  const found = entries.flatMap((entry) => Object.entries(entry.data as Record<string, string>)).find(([qualified]) => qualified.split('::').at(-1) === id);
  if (!found) throw new Error(`${scope.node.path} acknowledges no ${id}.`);
  return found[1];
}

const acknowledgements = [
  ['AwsSolutions-COG2 on the user pool', () => acknowledgement(stack.node.findChild('Auth').node.findChild('UserPool'), 'AwsSolutions-COG2')],
  ['AwsSolutions-COG4 on the REST API', () => acknowledgement(stack.node.findChild('Api').node.findChild('RestApi'), 'AwsSolutions-COG4')],
] as const;

describe.each(acknowledgements)('the acknowledgement %s', (_name, reason) => {
  it('claims no status check by the authorizer or on the token', () => {
    expect(reason()).not.toMatch(/checked against the user status|refuses suspended users|authorizer[^.]*\bstatus\b[^.]*\brefus/i);
  });

  it("says that the routes read the caller's stored status in the request", () => {
    expect(reason()).toMatch(/routes? (then )?reads? the caller's stored status and role/i);
  });
});

describe('the user pool acknowledgement', () => {
  it('says that the authorizer allows a known user whatever its status and that its answer is cached', () => {
    const text = acknowledgement(stack.node.findChild('Auth').node.findChild('UserPool'), 'AwsSolutions-COG2');
    expect(text).toMatch(/allows a known user whatever its status/);
    expect(text).toMatch(/caches that answer per token/);
  });
});
