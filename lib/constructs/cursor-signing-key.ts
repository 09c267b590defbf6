import { RemovalPolicy } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { RouteDefinition } from '../../functions/shared/http/route-definition';
import { acknowledgeFindings } from '../nag-acknowledgements';

/** Variable the list functions read their cursor secret from (functions/shared/listing/cursor-config.ts). */
export const CURSOR_SECRET_ENV = 'CURSOR_SECRET';

/** Whether a route issues and accepts `next` cursors: its definition says it pages. */
export function signsListCursors(route: RouteDefinition): boolean {
  return route.paginated === true;
}

/** Properties of {@link CursorSigningKey}. */
export interface CursorSigningKeyProps {
  /**
   * Which generation of the secret the stack holds (the `cursorKeyGeneration` setting): a new one
   * replaces the secret with a newly generated one, which is how the key is rotated.
   */
  readonly generation: number;
}

/**
 * The secret that seals list cursors, generated per deployment in Secrets Manager. Each listing
 * derives its own AES-256-GCM key from it (HKDF-SHA256, functions/shared/listing/cursor.ts), which
 * encrypts and authenticates that listing's `next` cursors: no other deployment or listing (and no
 * local run, which has a key of its own) accepts them, and a client can neither read nor steer
 * where a walk resumes.
 *
 * It keeps something secret: a page that spent its read budget on items the caller may not see
 * resumes after the last key it read, which can be the sort key of such an item (a media log
 * entry's send time and id, a root user's email or username in an admin's listing); sealed, the
 * cursor shows nothing of it (DESIGN 4). Whoever holds the key can open any cursor they hold and
 * read that key, and forge cursors that start a walk anywhere in their own listing; the reads
 * stay within their scope and read budget, so it gives no access to data.
 *
 * The functions get the value in their environment through a CloudFormation dynamic reference,
 * resolved at deploy time: no Secrets Manager call at cold start, no permission on the secret in
 * any function role, and the template holds only the reference. The value is then readable by
 * whoever may read those functions' configuration. CloudFormation resolves the reference only when
 * it updates a function, not when the secret's value changes
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/dynamic-references-secretsmanager.html),
 * so the key is rotated by replacing the secret: a new generation is a new secret, and the same
 * deployment updates every list function with it.
 */
export class CursorSigningKey extends Construct {
  public readonly secret: secretsmanager.Secret;
  /** The variables a list function needs: the key, as a dynamic reference. */
  public readonly environment: Readonly<Record<string, string>>;

  public constructor(scope: Construct, id: string, props: CursorSigningKeyProps) {
    super(scope, id);
    // Generation 1 keeps the id the secret had before generations existed: upgrading rotates nothing.
    this.secret = new secretsmanager.Secret(this, props.generation === 1 ? 'Secret' : `SecretGeneration${props.generation}`, {
      description: `Seals the list cursors of the Frontend API: each listing's AES-256-GCM key is derived from it (generation ${props.generation})`,
      // 48 characters of [A-Za-z0-9]: ~285 bits, beyond the 256 of the derived key; no punctuation to quote.
      generateSecretString: { passwordLength: 48, excludePunctuation: true, includeSpace: false },
      // Protects no stored data: a stack deleted and deployed again, or a rotation, only invalidates old cursors.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.environment = { [CURSOR_SECRET_ENV]: this.secret.secretValue.unsafeUnwrap() };
    acknowledgeFindings(this.secret, {
      'AwsSolutions-SMG4':
        'Rotated on demand, not on a schedule: a new cursorKeyGeneration replaces the secret, and the same deployment updates every list function with it (the functions receive the value at deploy time, so a scheduled rotation would reach none of them). A rotation turns every outstanding cursor into a 400 mid-walk; a cursor lives as long as one walk through a listing.',
    });
  }
}
