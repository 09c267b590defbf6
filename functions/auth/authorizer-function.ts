import type { AuthorizerDefinition } from '../shared/deployment/function-definitions';
import { SUBJECT_LOOKUP } from '../shared/deployment/users-table-access';

/** The REQUEST authorizer: bearer token to user. It may Query the users table's subject index, nothing else. */
export const authorizerFunction = {
  name: 'authorizer',
  handler: 'functions/auth/authorizer.ts',
  grants: { users: [SUBJECT_LOOKUP] },
} as const satisfies AuthorizerDefinition;
