import { ApiGatewayManagementApiClient, DeleteConnectionCommand, GetConnectionCommand, GoneException, PostToConnectionCommand } from '@aws-sdk/client-apigatewaymanagementapi';
import { clientOptions, CLIENT_LIMITS } from '../../shared/aws/clients';
import type { ClientConfig } from '../../shared/config/data-config';
import { traced } from '../../shared/observability/tracing';
import type { LiveMessage } from '../model/live-messages';

/**
 * The WebSocket API's `@connections` API
 * (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-how-to-call-websocket-api-connections.html):
 * send a message to a connection, ask whether it is open, close it. A connection API Gateway no
 * longer knows answers `GoneException` (410): each call says so instead of throwing, and the
 * caller removes the connection from the registry.
 */
export class ConnectionsApi {
  public constructor(private readonly client: ApiGatewayManagementApiClient) {}

  /** Send one message; `gone` when the connection is closed. */
  public async post(connectionId: string, message: LiveMessage): Promise<'sent' | 'gone'> {
    return this.goneOr('sent', () => this.client.send(new PostToConnectionCommand({ ConnectionId: connectionId, Data: Buffer.from(JSON.stringify(message)) })));
  }

  /** Close a connection (API Gateway then runs its `$disconnect`); `gone` when it was closed already. */
  public async close(connectionId: string): Promise<'closed' | 'gone'> {
    return this.goneOr('closed', () => this.client.send(new DeleteConnectionCommand({ ConnectionId: connectionId })));
  }

  /** Whether API Gateway still holds the connection. */
  public async isOpen(connectionId: string): Promise<boolean> {
    return (await this.goneOr('open', () => this.client.send(new GetConnectionCommand({ ConnectionId: connectionId })))) === 'open';
  }

  private async goneOr<T extends string>(done: T, call: () => Promise<unknown>): Promise<T | 'gone'> {
    try {
      await call();
      return done;
    } catch (error) {
      if (error instanceof GoneException) return 'gone';
      throw error;
    }
  }
}

/** The `@connections` client of an endpoint, with the service's time limits, traced in Lambda. */
export function createConnectionsClient(endpoint: string, config: ClientConfig): ApiGatewayManagementApiClient {
  return traced(new ApiGatewayManagementApiClient(clientOptions({ region: config.region, endpoint, accessKey: config.accessKey, limits: CLIENT_LIMITS })));
}
