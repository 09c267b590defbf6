import { ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { getDocumentClient } from '../../functions/shared/aws/clients';

/**
 * The local gateway serves requests at once in one process, so it needs the InvokeStore that keeps
 * each invocation's context apart. A process has one store, made by whoever asks first, and the
 * AWS SDK asks on every request it sends: a gateway loaded after an SDK request would find the
 * store that holds one context for the whole process, and concurrent requests would log each
 * other's ids (test/observability/correlated-logs.test.ts). It refuses to load instead of serving
 * so. This file sends its request before loading the gateway; every other file loads it first.
 */

it('refuses to load once an AWS SDK request has made the store that holds one invocation at a time', async () => {
  await getDocumentClient().send(new ListTablesCommand({}));

  await expect(import('../../local/gateway/local-invocation')).rejects.toThrow(
    'The InvokeStore of this process holds one invocation at a time: it was made before local/gateway/local-invocation.ts loaded',
  );
});
