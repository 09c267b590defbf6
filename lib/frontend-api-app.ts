import { App, type AppProps, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { FrontendApiStack, type FrontendApiStackProps } from './frontend-api-stack';
import { readStackSettings } from './stack-settings';

/** Stack name unless the `stackName` context names another (one stack per environment). */
export const DEFAULT_STACK_NAME = 'FrontendApi';

/** The app and its one stack. */
export interface FrontendApiApp {
  readonly app: App;
  readonly stack: FrontendApiStack;
}

/**
 * Builds the CDK app: the stack, configured from context, checked by the AWS Solutions and
 * Serverless rule packs of cdk-nag on every synth (any unacknowledged finding fails it).
 * `overrides` narrow or extend the deployed functions and table definitions, for tests only.
 */
export function createFrontendApiApp(props: AppProps = {}, overrides: Pick<FrontendApiStackProps, 'functions' | 'tables'> = {}): FrontendApiApp {
  const app = new App(props);
  const stackName = (app.node.tryGetContext('stackName') as string | undefined) || DEFAULT_STACK_NAME;
  const stack = new FrontendApiStack(app, stackName, {
    ...overrides,
    settings: readStackSettings(app.node),
    description: 'Frontend API: user profiles, avatars and the media request log',
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app), new ServerlessChecks(app));
  return { app, stack };
}
