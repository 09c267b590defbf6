import type { AuthorizerDefinition } from '../shared/deployment/function-definitions';

/** The REQUEST authorizer: bearer token to user. It reads the users table's subject index. */
export const authorizerFunction = {
  name: 'authorizer',
  handler: 'functions/auth/authorizer.ts',
  grants: { users: 'read' },
} as const satisfies AuthorizerDefinition;
