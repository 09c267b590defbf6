import { Match } from 'aws-cdk-lib/assertions';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { logicalIdAt, synthesizeStack } from './stack-fixture';

const { stack, template } = synthesizeStack();
const bucketId = logicalIdAt(stack, ['AvatarStorage', 'Avatars']);
const bucket = template.toJSON().Resources[bucketId] as { Properties: Record<string, any>; DeletionPolicy: string };

describe('the avatar bucket', () => {
  it('is private, S3-encrypted, logged and retained', () => {
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdAt(stack, ['AvatarStorage', 'AccessLogs']) } },
    });
    expect(bucket.DeletionPolicy).toBe('Retain');
  });

  it('never expires an avatar: its lifecycle rules abort multipart uploads left unfinished, and remove upload files, after a day', () => {
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual([
      { Id: 'abort-incomplete-uploads', AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 }, Status: 'Enabled' },
      { Id: 'expire-unused-upload-files', Prefix: avatarBucket.uploadPrefix, ExpirationInDays: 1, Status: 'Enabled' },
    ]);
    expect(avatarBucket.uploadPrefix.startsWith(avatarBucket.objectPrefix)).toBe(false);
  });

  it('lets browsers on the configured origins POST upload forms, and nothing else crosses origins', () => {
    const origins = ['https://app.example.com', 'https://admin.example.com'];
    const configured = synthesizeStack({ corsOrigins: origins });
    const corsOf = (synthesized: typeof configured) =>
      (synthesized.template.toJSON().Resources[logicalIdAt(synthesized.stack, ['AvatarStorage', 'Avatars'])] as { Properties: Record<string, any> }).Properties.CorsConfiguration;
    expect(corsOf(configured)).toEqual({ CorsRules: [{ AllowedOrigins: origins, AllowedMethods: ['POST'], AllowedHeaders: ['*'], MaxAge: 600 }] });
    // Without origins, no page may post (the default settings configure none).
    expect(bucket.Properties.CorsConfiguration).toBeUndefined();
  });

  it('keeps no old versions, so a deleted avatar is gone', () => {
    expect(bucket.Properties.VersioningConfiguration).toBeUndefined();
  });

  it('refuses plain HTTP and lets CloudFront read nothing outside the avatar prefix', () => {
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({
            Effect: 'Deny',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
            NotResource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, `/${avatarBucket.objectPrefix}*`]] },
          }),
        ]),
      },
    });
  });
});

describe('what CloudFront may do in the bucket', () => {
  it('is reading objects, never listing: a missing or deleted avatar is S3\'s 403 through the CDN, and no request through it lists the bucket', () => {
    // Without s3:ListBucket, S3 answers a GetObject of a missing key 403 AccessDenied, not 404
    // (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html); the local S3 answers 404.
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy')) as { Properties: { Bucket: unknown; PolicyDocument: { Statement: { Effect: string; Principal?: unknown; Action: string | string[] }[] } } }[];
    const forCloudFront = policies
      .filter((policy) => JSON.stringify(policy.Properties.Bucket) === JSON.stringify({ Ref: bucketId }))
      .flatMap((policy) => policy.Properties.PolicyDocument.Statement)
      .filter((statement) => JSON.stringify(statement.Principal ?? '').includes('cloudfront.amazonaws.com'));
    const allowed = forCloudFront.filter((statement) => statement.Effect === 'Allow').flatMap((statement) => [statement.Action].flat());
    expect(allowed).toEqual(['s3:GetObject']);
  });
});

describe('the avatar distribution', () => {
  it('reads the bucket through origin access control, HTTPS only, and logs', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        DefaultCacheBehavior: Match.objectLike({ ViewerProtocolPolicy: 'redirect-to-https', AllowedMethods: ['GET', 'HEAD'] }),
        Origins: [Match.objectLike({ OriginAccessControlId: Match.anyValue() })],
        Logging: Match.objectLike({ Bucket: Match.anyValue() }),
      }),
    });
  });
});
