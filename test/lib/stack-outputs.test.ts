import { tables } from '../../functions/shared/tables/index';
import { STACK_OUTPUTS, tableNameOutputKey } from '../../lib/frontend-api-stack';
import { synthesizeStack } from './stack-fixture';

describe('the stack outputs', () => {
  const outputs = synthesizeStack().template.toJSON().Outputs as Record<string, { Value: unknown; Description: string }>;

  it.each([
    STACK_OUTPUTS.apiUrl,
    STACK_OUTPUTS.avatarBucketName,
    STACK_OUTPUTS.avatarCdnDomainName,
    STACK_OUTPUTS.avatarPublicBaseUrl,
    STACK_OUTPUTS.authIssuer,
    STACK_OUTPUTS.userPoolId,
    STACK_OUTPUTS.userPoolClientId,
    ...tables.map(tableNameOutputKey),
  ])('include %s', (key) => {
    expect(outputs[key]).toBeDefined();
  });

  it('give the id of the feed\'s mapping, which the upgrade runbook pauses and resumes', () => {
    expect(outputs.MediaLogEventsMappingId?.Value).toEqual({ Ref: expect.stringMatching(/ingestMediaLogEvents/) });
    expect(outputs.MediaLogEventsMappingId?.Description).toContain('disable it to pause the feed');
  });

  it('give the API URL with the /frontend/api/v1 prefix', () => {
    const url = JSON.stringify(outputs[STACK_OUTPUTS.apiUrl]?.Value);
    expect(url).toContain('DeploymentStageprod');
    expect(url).toMatch(/"\/frontend\/api\/v1"\]\]\}$/);
  });

  it.each(tables.map((definition) => [tableNameOutputKey(definition), definition.nameEnv]))('name the variable %s fills (%s)', (key, variable) => {
    expect(outputs[key]?.Description).toContain(variable);
  });
});
