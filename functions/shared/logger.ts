import { Logger } from '@aws-lambda-powertools/logger';
import './observability/invoke-store';
import { keepOffStdout } from './observability/telemetry-output';

/**
 * The process-wide structured logger: one JSON object per line, with the service name. Inside an
 * invocation every line also carries the Lambda context (`function_request_id`, `function_name`,
 * `cold_start`), the API Gateway request id (`correlation_id`) and the route (`route`), which the
 * invocation's middleware appends (observability/invocation-telemetry.ts). Level from
 * `POWERTOOLS_LOG_LEVEL`; stderr outside Lambda.
 */
export const logger = keepOffStdout(new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'frontend-api' }));
