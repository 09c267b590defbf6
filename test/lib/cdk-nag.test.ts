import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsSolutionsChecks, ServerlessChecks } from 'cdk-nag';
import { routes } from '../../functions/routes';
import { sampleRoutes, synthesizeStack } from './stack-fixture';

/**
 * The stack passes the AWS Solutions and Serverless rule packs with every finding either fixed or
 * acknowledged with a reason: in the default configuration and with every optional part switched on.
 */

interface ValidationReport {
  pluginReports: { pluginName: string; summary?: { status: string }; violations?: unknown[] }[];
}

const configurations: [string, Record<string, unknown>][] = [
  ['the default configuration', {}],
  [
    'every option on (CORS, alarm email, external issuer) with image and public routes',
    {
      corsOrigins: 'https://app.example.com,https://admin.example.com',
      alarmEmail: 'ops@example.com',
      authIssuer: 'https://id.example.com/',
      authAudience: 'frontend-api',
      authJwksUrl: 'https://id.example.com/.well-known/jwks.json',
    },
  ],
];

describe.each(configurations)('cdk-nag on %s', (_title, context) => {
  const outdir = mkdtempSync(join(tmpdir(), 'frontend-api-synth-'));
  const { app } = synthesizeStack({ ...context }, { routes: [...routes, ...sampleRoutes()] });
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it.each([
    ['AwsSolutions', () => new AwsSolutionsChecks()],
    ['Serverless', () => new ServerlessChecks()],
  ])('%s reports no unacknowledged finding', (_pack, createPack) => {
    expect(createPack().validateScope(app).violations).toEqual([]);
  });

  it('writes a validation report without violations on synth', () => {
    const assembly = app.synth({ force: true });
    const report = JSON.parse(readFileSync(join(assembly.directory, 'validation-report.json'), 'utf8')) as ValidationReport;
    expect(report.pluginReports.filter((plugin) => (plugin.violations ?? []).length > 0)).toEqual([]);
  });
});
