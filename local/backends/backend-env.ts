import { CLIENT_ENV } from '../../functions/shared/config/data-config';
import { defineConfig } from '../../functions/shared/config/define-config';

/**
 * Environment variables the local back-end set-up reads: endpoints of bring-your-own back-ends
 * (the same variables the functions' clients read), fixed ports of the embedded ones, and where
 * Java is.
 */

/** Environment variables the local set-up reads (endpoints of bring-your-own backends, fixed ports). */
export const BACKEND_ENV = {
  dynamodbEndpoint: CLIENT_ENV.dynamodbEndpoint,
  s3Endpoint: CLIENT_ENV.s3Endpoint,
  dynamodbPort: 'DYNAMODB_LOCAL_PORT',
  s3Port: 'S3_LOCAL_PORT',
  javaHome: 'JAVA_HOME',
} as const;

const PORT_RANGE = { min: 1, max: 65_535 } as const;

/** The ports of the embedded back-ends; 0 (unset) lets the system pick a free one. */
export const backendPorts = defineConfig('back-end ports', (env) => ({
  dynamodb: env.integer(BACKEND_ENV.dynamodbPort, 0, PORT_RANGE),
  s3: env.integer(BACKEND_ENV.s3Port, 0, PORT_RANGE),
}));
