import { RemovalPolicy } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../../functions/shared/http/route-definition';
import { acknowledgeFindings } from '../nag-acknowledgements';

/** Variable the list functions read their cursor-signing key from (functions/shared/pagination/cursor.ts). */
export const CURSOR_SECRET_ENV = 'CURSOR_SECRET';

/** Whether a route issues and accepts signed `next` cursors: its definition says it pages. */
export function signsListCursors(route: RouteDefinition): boolean {
  return route.paginated === true;
}

/**
 * The key that signs list cursors, generated per deployment in Secrets Manager, so that no two
 * deployments (and no local run, which uses a built-in key) accept each other's cursors.
 *
 * The functions get the value in their environment through a CloudFormation dynamic reference,
 * resolved at deploy time: no Secrets Manager call at cold start, no permission on the secret in
 * any function role, and the template holds only the reference. The value is then readable by
 * whoever may read the function configuration, exactly like the table names beside it; that is
 * acceptable because the key grants no access to data: it only keeps clients from hand-crafting
 * cursors, and every query a cursor resumes is still bounded by the caller's scope.
 */
export class CursorSigningKey extends Construct {
  public readonly secret: secretsmanager.Secret;
  /** The variables a list function needs: the key, as a dynamic reference. */
  public readonly environment: Readonly<Record<string, string>>;

  public constructor(scope: Construct, id: string) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      description: 'Signs the list cursors of the Frontend API (HMAC-SHA256 key)',
      // 48 characters of [A-Za-z0-9]: ~285 bits, beyond the 256 of SHA-256; no punctuation to quote.
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
      // Protects no stored data: a stack deleted and deployed again only invalidates old cursors.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.environment = { [CURSOR_SECRET_ENV]: this.secret.secretValue.unsafeUnwrap() };
    acknowledgeFindings(this.secret, {
      'AwsSolutions-SMG4':
        'The key is no credential: it only makes cursors tamper-evident, and a cursor lives as long as one walk through a listing. Rotating it would turn every outstanding cursor into a 400 mid-walk, and the functions receive the value at deploy time, so a rotation would only take effect with the next deployment anyway.',
    });
  }
}
