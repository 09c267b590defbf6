/**
 * Environment variables the local back-end set-up reads: endpoints of bring-your-own back-ends,
 * fixed ports of the embedded ones, and where Java is.
 */

/** Environment variables the local set-up reads (endpoints of bring-your-own backends, fixed ports). */
export const BACKEND_ENV = {
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  dynamodbPort: 'DYNAMODB_LOCAL_PORT',
  s3Port: 'S3_LOCAL_PORT',
  javaHome: 'JAVA_HOME',
} as const;
