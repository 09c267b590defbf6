import { Console } from 'node:console';
import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The process-wide structured logger: one JSON object per line, with the service name and, inside
 * a request, the Lambda and API Gateway request ids. Level from `POWERTOOLS_LOG_LEVEL`.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'frontend-api' });

if (!process.env.AWS_LAMBDA_FUNCTION_NAME) {
  // Outside Lambda every log line goes to stderr: stdout carries results (`invoke`, the CLI).
  // The logger keeps its console in a property; there is no option for the stream.
  Object.assign(logger, { console: new Console({ stdout: process.stderr, stderr: process.stderr }) });
}
