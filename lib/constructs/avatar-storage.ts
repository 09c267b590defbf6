import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { uploadCorsRules, type avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { acknowledgeFindings } from '../nag-acknowledgements';

/** Properties of {@link AvatarStorage}. */
export interface AvatarStorageProps {
  /** The bucket definition the code uses: the avatar prefix and the objects' cache control. */
  readonly definition: typeof avatarBucket;
  /** Days the access logs (S3 and CloudFront) are kept. */
  readonly accessLogRetentionDays: number;
  /** The API's browser origins (DESIGN.md 5a): the pages that may post upload forms to the bucket. */
  readonly corsOrigins: readonly string[];
}

/**
 * Where cropped avatars live and how browsers fetch them: a private, encrypted bucket that only the
 * avatar routes write and the reconciler sweeps, served through CloudFront with origin access
 * control. CloudFront may read the avatar prefix only.
 */
export class AvatarStorage extends Construct {
  public readonly bucket: s3.Bucket;
  public readonly distribution: cloudfront.Distribution;
  /** Access logs of the bucket and the distribution. */
  public readonly logBucket: s3.Bucket;
  /** `https://<distribution domain>`: avatar URLs are this plus the object key. */
  public readonly publicBaseUrl: string;

  public constructor(scope: Construct, id: string, props: AvatarStorageProps) {
    super(scope, id);
    this.logBucket = this.createLogBucket(props.accessLogRetentionDays);
    this.bucket = this.createBucket(props.definition, props.corsOrigins);
    this.distribution = this.createDistribution(props.definition);
    this.publicBaseUrl = `https://${this.distribution.distributionDomainName}`;
  }

  private createLogBucket(retentionDays: number): s3.Bucket {
    return new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logging delivers through bucket ACLs, which BUCKET_OWNER_ENFORCED disables.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(retentionDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  private createBucket(definition: typeof avatarBucket, corsOrigins: readonly string[]): s3.Bucket {
    return new s3.Bucket(this, 'Avatars', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.logBucket,
      serverAccessLogsPrefix: 'avatars-bucket/',
      // Unversioned on purpose: objects are written once under content-addressed keys, so there is
      // nothing to overwrite by mistake, and a deleted avatar must really be gone rather than linger
      // as a noncurrent version. Records and objects are kept consistent by the routes and the
      // reconciler, not by expiry. Lifecycle rules clear parts of multipart uploads that never
      // finished, and the files browsers posted with an upload form that no avatar upload used.
      lifecycleRules: [
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
        { id: 'expire-unused-upload-files', prefix: definition.uploadPrefix, expiration: Duration.days(definition.uploadLifetimeDays) },
      ],
      // Browsers on the API's origins post upload forms here; nothing else crosses origins.
      cors: uploadCorsRules(corsOrigins).map((rule) => ({
        allowedOrigins: rule.allowedOrigins,
        allowedMethods: rule.allowedMethods.map((method) => s3.HttpMethods[method]),
        allowedHeaders: rule.allowedHeaders,
        maxAge: rule.maxAgeSeconds,
      })),
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  private createDistribution(definition: typeof avatarBucket): cloudfront.Distribution {
    const distribution = new cloudfront.Distribution(this, 'Cdn', {
      comment: 'Avatars of the Frontend API',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: cloudfront.AllowedMethods.ALLOW_GET_HEAD,
        cachePolicy: this.createCachePolicy(definition),
        responseHeadersPolicy: cloudfront.ResponseHeadersPolicy.SECURITY_HEADERS,
        compress: true,
      },
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'avatars-cdn/',
    });
    // The origin access control grants reads on the whole bucket; whatever else ever lands in it
    // (a stray upload, an operator's export) stays private.
    this.bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'ServeOnlyTheAvatarPrefix',
        effect: iam.Effect.DENY,
        principals: [new iam.ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        notResources: [this.bucket.arnForObjects(`${definition.objectPrefix}*`)],
      }),
    );
    this.acknowledgeDistributionFindings(distribution);
    return distribution;
  }

  /**
   * CachingOptimized's key (no headers, cookies or query; compressed variants) with a lifetime of
   * at most `sharedCacheSeconds`, whatever an object's own Cache-Control says: a deleted avatar
   * stops being served within that time. Chosen over invalidating its path on deletion, which
   * would give the avatar routes a CloudFront permission, cost per path beyond the free thousand a
   * month, and itself take minutes to spread
   * (https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/Expiration.html).
   */
  private createCachePolicy(definition: typeof avatarBucket): cloudfront.CachePolicy {
    const lifetime = Duration.seconds(definition.sharedCacheSeconds);
    return new cloudfront.CachePolicy(this, 'AvatarCachePolicy', {
      comment: 'Avatars: content-addressed images, cached at most as long as a deleted one may still be served',
      defaultTtl: lifetime,
      maxTtl: lifetime,
      minTtl: Duration.seconds(0),
      headerBehavior: cloudfront.CacheHeaderBehavior.none(),
      cookieBehavior: cloudfront.CacheCookieBehavior.none(),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });
  }

  private acknowledgeDistributionFindings(distribution: cloudfront.Distribution): void {
    acknowledgeFindings(distribution, {
      'AwsSolutions-CFR1': 'Avatars are shown to users wherever they are; the API itself decides who may see which profile.',
      'AwsSolutions-CFR2':
        'The distribution serves immutable, content-addressed images for GET/HEAD only; there is no input for a WAF to inspect, and CloudFront Shield Standard covers floods.',
      'AwsSolutions-CFR4':
        'The distribution uses the default *.cloudfront.net certificate, for which CloudFront fixes the minimum viewer protocol; a custom domain with its own certificate would set TLSv1.2_2021.',
    });
  }

}
