import { tableName } from '../shared/config/data-config';
import { getDocumentClient } from '../shared/aws/clients';
import { lazy } from '../shared/lazy';
import { usersTable } from '../shared/tables/users-table';
import { IdentityRepository } from './identity-repository';
import { StoredCallers } from './stored-callers';

/** The process-wide identity reads, on the shared client. */
export const identityRepository = /* @__PURE__ */ lazy(() => new IdentityRepository(getDocumentClient(), tableName(usersTable)));

/** The process-wide stored-caller resolution of the bearer routes. */
export const storedCallers = /* @__PURE__ */ lazy(() => new StoredCallers(identityRepository()));
