import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import type { AuthorizerDefinition } from '../../functions/shared/deployment/function-definitions';
import { grantFunctionData, type GrantableData } from '../data-grants';
import { acknowledgeFindings } from '../nag-acknowledgements';
import type { ExternalIssuerSettings } from '../stack-settings';
import { ServiceFunction } from './service-function';

/** Properties of {@link Auth}. */
export interface AuthProps {
  /** The authorizer function's entry of the deployed functions. */
  readonly definition: AuthorizerDefinition;
  /** Trust this OIDC issuer; without it the construct creates a Cognito user pool and trusts that. */
  readonly externalIssuer?: ExternalIssuerSettings;
  /** Protect the user pool from deletion. */
  readonly deletionProtection: boolean;
  /** Seconds API Gateway caches an authorizer answer per token. */
  readonly cacheSeconds: number;
  /** Environment every function shares (table names, logging). */
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetentionDays: number;
  readonly data: GrantableData;
  /** Concurrent executions reserved for the authorizer: a flood on other functions cannot take them. */
  readonly reservedConcurrency: number;
}

/** The token issuer the authorizer verifies against, in the variables the authorizer reads. */
export interface IssuerEnvironment {
  readonly AUTH_ISSUER: string;
  readonly AUTH_JWKS_URL: string;
  /** An external issuer's expected `aud`. */
  readonly AUTH_AUDIENCE?: string;
  /** The Cognito app client: access tokens carry it as `client_id`, ID tokens as `aud`. */
  readonly AUTH_COGNITO_CLIENT_ID?: string;
}

/**
 * Who may call the API: the REQUEST authorizer function (identity source: the Authorization header)
 * and the issuer it trusts, a Cognito user pool with an app client for the frontend by default.
 */
export class Auth extends Construct {
  public readonly authorizer: apigateway.RequestAuthorizer;
  public readonly authorizerFunction: ServiceFunction;
  public readonly issuer: IssuerEnvironment;
  /** The user pool, when the stack created one. */
  public readonly userPool?: cognito.UserPool;
  public readonly userPoolClient?: cognito.UserPoolClient;

  public constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);
    if (props.externalIssuer) {
      const { issuer, audience, jwksUrl } = props.externalIssuer;
      this.issuer = { AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience, AUTH_JWKS_URL: jwksUrl };
    } else {
      this.userPool = this.createUserPool(props.deletionProtection);
      this.userPoolClient = this.userPool.addClient('FrontendClient', {
        // A browser cannot keep a secret; the frontend signs in with SRP.
        generateSecret: false,
        authFlows: { userSrp: true },
        disableOAuth: true,
        preventUserExistenceErrors: true,
        enableTokenRevocation: true,
        accessTokenValidity: Duration.hours(1),
        idTokenValidity: Duration.hours(1),
        refreshTokenValidity: Duration.days(30),
      });
      const issuer = `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${this.userPool.userPoolId}`;
      this.issuer = {
        AUTH_ISSUER: issuer,
        AUTH_JWKS_URL: `${issuer}/.well-known/jwks.json`,
        AUTH_COGNITO_CLIENT_ID: this.userPoolClient.userPoolClientId,
      };
    }
    this.authorizerFunction = new ServiceFunction(this, 'AuthorizerFunction', {
      handlerModule: props.definition.handler,
      description: 'the REQUEST authorizer: bearer token to user',
      image: false,
      invokedBy: 'api',
      environment: { ...props.environment, ...this.issuer },
      logRetentionDays: props.logRetentionDays,
      reservedConcurrency: props.reservedConcurrency,
    });
    grantFunctionData(this.authorizerFunction.role, props.definition.grants, props.data);
    this.authorizer = new apigateway.RequestAuthorizer(this, 'Authorizer', {
      handler: this.authorizerFunction.function,
      identitySources: [apigateway.IdentitySource.header('Authorization')],
      resultsCacheTtl: Duration.seconds(props.cacheSeconds),
    });
  }

  private createUserPool(deletionProtection: boolean): cognito.UserPool {
    const pool = new cognito.UserPool(this, 'UserPool', {
      // Operators create users (`user create`); nobody signs up on their own.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      autoVerify: { email: true },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      passwordPolicy: {
        minLength: 12,
        requireLowercase: true,
        requireUppercase: true,
        requireDigits: true,
        requireSymbols: true,
        tempPasswordValidity: Duration.days(3),
      },
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      deletionProtection,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledgeFindings(pool, {
      'AwsSolutions-COG2':
        "MFA is optional (TOTP) so that each frontend team can require it through its own sign-in flow. A token lives at most 1 h. The authorizer checks only the token (signature, issuer, audience, expiry, a subject that names one user) and allows a known user whatever its status; API Gateway caches that answer per token. Every route then reads the caller's stored status and role in the same request, so a suspended, demoted or deleted user is refused (403, or 401 when deleted) on its next call whatever the cache holds, and refuses a token past its exp (401), which the authorizer passes on in its context.",
      'AwsSolutions-COG8':
        'The Essentials plan suffices: no self sign-up, operators invite every user; threat protection of the Plus plan is a per-user cost an operator can opt into.',
    });
    return pool;
  }
}
