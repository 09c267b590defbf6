import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges cdk-nag findings on a construct (and everything under it), each with the reason it
 * is accepted. An id must match the finding exactly, e.g. `AwsSolutions-IAM5[Resource::*]`.
 */
export function acknowledgeFindings(scope: IConstruct, reasons: Readonly<Record<string, string>>): void {
  for (const [id, reason] of Object.entries(reasons)) Validations.of(scope).acknowledge({ id, reason });
}
