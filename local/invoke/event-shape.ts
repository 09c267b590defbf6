import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import { UsageError } from '../cli/cli-errors';

/** What kind of event a JSON document is: a REST API proxy event, a REQUEST authorizer event, a scheduled event, SQS messages, DynamoDB stream records, or a WebSocket API event. */
export type EventKind = 'proxy' | 'authorizer' | 'scheduled' | 'sqs' | 'dynamodb-stream' | 'websocket';

const WEBSOCKET_EVENT_TYPES = ['CONNECT', 'MESSAGE', 'DISCONNECT'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Recognize an event as AWS sends it. A REQUEST authorizer event has `type: REQUEST` and a
 * `methodArn`; a REST API (v1) proxy event has `httpMethod`, `path`, `resource` and a
 * `requestContext` (an HTTP API v2 event, with `version: '2.0'` and `routeKey`, is not one). An SQS
 * event is `Records`, each with `eventSource: aws:sqs`, a `messageId` and a `body`
 * (https://docs.aws.amazon.com/lambda/latest/dg/with-sqs.html#example-standard-queue-message-event);
 * a DynamoDB Streams event is `Records`, each with `eventSource: aws:dynamodb` and a `dynamodb`
 * object (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html); a WebSocket API event has a
 * `requestContext` with an `eventType` of CONNECT, MESSAGE or DISCONNECT, its `routeKey` and
 * `connectionId` (https://docs.aws.amazon.com/apigateway/latest/developerguide/apigateway-websocket-api-integration-requests.html).
 */
export function eventKind(event: unknown): EventKind {
  if (!isObject(event)) throw new UsageError('the event is not a JSON object.');
  if (event.type === 'REQUEST' && typeof event.methodArn === 'string') return 'authorizer';
  if (event['detail-type'] === 'Scheduled Event' && event.source === 'aws.events') return 'scheduled';
  if (Array.isArray(event.Records) && event.Records.length > 0 && event.Records.every((record) => isObject(record) && record.eventSource === 'aws:dynamodb')) {
    const shaped = event.Records.every((record) => isObject(record.dynamodb) && typeof record.dynamodb.SequenceNumber === 'string');
    if (!shaped) throw new UsageError('Records of a DynamoDB Streams event need a dynamodb object with its SequenceNumber.');
    return 'dynamodb-stream';
  }
  if (Array.isArray(event.Records)) {
    const sqs = event.Records.every((record) => isObject(record) && record.eventSource === 'aws:sqs' && typeof record.messageId === 'string' && typeof record.body === 'string');
    if (!sqs) throw new UsageError('Records must be SQS messages (eventSource aws:sqs, with messageId and body).');
    return 'sqs';
  }
  const context = event.requestContext;
  if (isObject(context) && typeof context.eventType === 'string' && WEBSOCKET_EVENT_TYPES.includes(context.eventType)) {
    const missing = ['connectionId', 'routeKey'].filter((field) => typeof context[field] !== 'string');
    if (missing.length > 0) throw new UsageError(`a WebSocket event's requestContext needs ${missing.join(' and ')}.`);
    return 'websocket';
  }
  if (event.version === '2.0' || typeof event.routeKey === 'string') {
    throw new UsageError('this is an HTTP API (v2) event; the functions take REST API proxy events.');
  }
  const missing = ['httpMethod', 'path', 'resource'].filter((field) => typeof event[field] !== 'string');
  if (missing.length > 0 || !isObject(event.requestContext)) {
    throw new UsageError(`not an API Gateway REST proxy event, authorizer event, scheduled event or SQS event (missing ${[...missing, ...(isObject(event.requestContext) ? [] : ['requestContext'])].join(', ')}).`);
  }
  return 'proxy';
}

/** A proxy event, after {@link eventKind} said so. */
export type ProxyEvent = APIGatewayProxyEvent;
/** An authorizer event, after {@link eventKind} said so. */
export type AuthorizerEvent = APIGatewayRequestAuthorizerEvent;
/** An SQS event, after {@link eventKind} said so. */
export type QueueEvent = SQSEvent;
/** A DynamoDB Streams event, after {@link eventKind} said so. */
export type StreamEvent = DynamoDBStreamEvent;
