import { IdentityRepository } from '../auth/identity-repository';
import { getDocumentClient } from '../shared/aws/clients';
import { dataConfig, tableName } from '../shared/config/data-config';
import { lazy } from '../shared/lazy';
import { liveConnectionsTable } from '../shared/tables/live-connections-table';
import { UserScopeReader } from '../shared/tables/user-scope-reader';
import { usersTable } from '../shared/tables/users-table';
import { liveConnectionsConfig } from './live-config';
import { ConnectionsApi, createConnectionsClient } from './registry/connections-api';
import { RegistryRepository } from './registry/registry-repository';
import { TicketRepository } from './ticket/ticket-repository';
import { AccessKeeper } from './access/access-keeper';

/**
 * The live media log's adapters, each built once per process on first use (at cold start in
 * Lambda, see functions/shared/lazy.ts) and shared by the functions that use it.
 */

/** The watcher registry. */
export const liveRegistry = /* @__PURE__ */ lazy(() => new RegistryRepository(getDocumentClient(), tableName(liveConnectionsTable)));

/** The tickets. */
export const liveTicketStore = /* @__PURE__ */ lazy(() => new TicketRepository(getDocumentClient(), tableName(liveConnectionsTable)));

/** Who a user is now: its stored profile. */
export const liveIdentities = /* @__PURE__ */ lazy(() => new IdentityRepository(getDocumentClient(), tableName(usersTable)));

/** Who belongs together: families and root users. */
export const liveScopeReader = /* @__PURE__ */ lazy(() => new UserScopeReader(getDocumentClient(), tableName(usersTable)));

/** The WebSocket API's `@connections` API. */
export const liveConnectionsApi = /* @__PURE__ */ lazy(() => new ConnectionsApi(createConnectionsClient(liveConnectionsConfig().endpoint, dataConfig())));

/** Keeps the connections within their users' access. */
export const liveAccessKeeper = /* @__PURE__ */ lazy(() => new AccessKeeper({ registry: liveRegistry(), scopes: liveScopeReader(), connections: liveConnectionsApi }));
