/**
 * The CDK app (`cdk synth`, `cdk deploy`): the Frontend API stack, configured by context.
 */
import { createFrontendApiApp } from '../lib/frontend-api-app';

createFrontendApiApp();
