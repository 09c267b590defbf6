/**
 * AWS's published list prices for us-east-1 (N. Virginia), as the live bench prices a day with them.
 * Pay-as-you-go rates without free tier or volume discounts; each with the page it comes from.
 */
export const US_EAST_1_PRICES = {
  /**
   * WebSocket APIs: $1.00 per million messages (the first billion a month; messages are metered in
   * 32 KB increments) and $0.25 per million connection minutes, https://aws.amazon.com/api-gateway/pricing/.
   */
  webSocketMessage: 1.0 / 1e6,
  connectionMinute: 0.25 / 1e6,
  /** Lambda on arm64: $0.0000133334 per GB-second and $0.20 per million requests, https://aws.amazon.com/lambda/pricing/. */
  lambdaGbSecond: 0.0000133334,
  lambdaRequest: 0.2 / 1e6,
  /**
   * DynamoDB on-demand: $0.125 per million read request units and $0.625 per million write request
   * units (since November 2024), https://aws.amazon.com/dynamodb/pricing/on-demand/.
   */
  readRequestUnit: 0.125 / 1e6,
  writeRequestUnit: 0.625 / 1e6,
} as const;

/** What a day of the live media log uses, by meter. */
export interface DailyUsage {
  readonly messages: number;
  readonly connectionMinutes: number;
  readonly lambdaRequests: number;
  readonly lambdaGbSeconds: number;
  readonly readUnits: number;
  readonly writeUnits: number;
}

/** A day's cost by meter, and in all, in dollars. */
export function dailyCost(usage: DailyUsage): { messages: number; connections: number; lambda: number; dynamodb: number; total: number } {
  const price = US_EAST_1_PRICES;
  const messages = usage.messages * price.webSocketMessage;
  const connections = usage.connectionMinutes * price.connectionMinute;
  const lambda = usage.lambdaRequests * price.lambdaRequest + usage.lambdaGbSeconds * price.lambdaGbSecond;
  const dynamodb = usage.readUnits * price.readRequestUnit + usage.writeUnits * price.writeRequestUnit;
  return { messages, connections, lambda, dynamodb, total: messages + connections + lambda + dynamodb };
}
