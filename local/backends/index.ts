/**
 * The local backends: DynamoDB Local and a local S3 on 127.0.0.1, provisioned from the same table
 * and bucket definitions as the stack. Used by `npm start`, the CLI, `invoke` and the tests.
 */
export { BACKEND_ENV } from './backend-env';
export { BACKEND_KINDS, type BackendKind } from './backend-kinds';
export { DATA_DIR_LAYOUT } from './data-dir-layout';
export { LOOPBACK_HOST } from './ports';
export { BackendStartError, BackendsAlreadyRunningError, JavaNotFoundError, LocalBackendError, PortInUseError } from './errors';
export { type DynamoDbLocalOptions, startDynamoDbLocal } from './dynamodb-local';
export { type LocalS3Options, startLocalS3 } from './local-s3';
export type { BackendChild } from './child-process';
export { type ProvisioningReport, type ProvisioningTarget, provisionResources } from './provisioning';
export { type NamingOptions, type ResourceNames, resolveResourceNames } from './resource-names';
export { createTableInput } from './table-provisioning';
export { type BackendsState, findRunningBackends, stateFilePath } from './state-file';
export { connectOrStartBackends, type LocalBackends, type StartBackendsOptions, startBackends } from './start-backends';
export { noStatus, statusToStderr, type StatusLine } from './startup-status';
