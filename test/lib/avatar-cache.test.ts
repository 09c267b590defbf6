import { avatarBucketName } from '../../functions/shared/config/data-config';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { avatarStorage } from '../../local/tool-composition';
import { getS3Client } from '../../functions/shared/aws/clients';
import { avatarBucket } from '../../functions/shared/storage/avatar-bucket';
import { logicalIdAt, synthesizeStack, type Resources } from './stack-fixture';

/**
 * A deleted avatar stops being served (issue 16, item 8): the CDN keeps an avatar at most
 * `sharedCacheSeconds` (5 minutes) before it asks the bucket again, whatever the object's own
 * Cache-Control, and the stored objects tell every shared cache the same; browsers may keep the
 * content-addressed image for a year.
 */

const { stack, template } = synthesizeStack();
const resources = template.toJSON().Resources as Resources;
const distribution = resources[logicalIdAt(stack, ['AvatarStorage', 'Cdn'])]?.Properties.DistributionConfig;
const policyId = logicalIdAt(stack, ['AvatarStorage', 'AvatarCachePolicy']);

/** The value of a Cache-Control directive, or undefined. */
function directive(cacheControl: string, name: string): string | undefined {
  return cacheControl.split(',').map((part) => part.trim().split('=')).find(([key]) => key === name)?.[1];
}

describe('the avatar CDN', () => {
  it('caches with the avatar cache policy', () => {
    expect(distribution.DefaultCacheBehavior.CachePolicyId).toEqual({ Ref: policyId });
  });

  it('keeps an avatar at most 5 minutes, whatever the object says', () => {
    expect(avatarBucket.sharedCacheSeconds).toBe(300);
    expect(resources[policyId]?.Properties.CachePolicyConfig).toMatchObject({
      DefaultTTL: avatarBucket.sharedCacheSeconds,
      MaxTTL: avatarBucket.sharedCacheSeconds,
      MinTTL: 0,
    });
  });

  it('keys the cache on the path alone and serves compressed variants', () => {
    expect(resources[policyId]?.Properties.CachePolicyConfig.ParametersInCacheKeyAndForwardedToOrigin).toEqual({
      CookiesConfig: { CookieBehavior: 'none' },
      HeadersConfig: { HeaderBehavior: 'none' },
      QueryStringsConfig: { QueryStringBehavior: 'none' },
      EnableAcceptEncodingGzip: true,
      EnableAcceptEncodingBrotli: true,
    });
  });
});

describe('a stored avatar', () => {
  it('tells shared caches the CDN\'s lifetime and browsers a year, immutable', async () => {
    const key = `${avatarBucket.objectPrefix}cache-test/${Date.now()}.webp`;
    await avatarStorage().put(key, Buffer.from('webp bytes'));

    const { CacheControl } = await getS3Client().send(new HeadObjectCommand({ Bucket: avatarBucketName(), Key: key }));

    expect(CacheControl).toBe(avatarBucket.cacheControl);
    expect(directive(CacheControl ?? '', 's-maxage')).toBe(String(avatarBucket.sharedCacheSeconds));
    expect(directive(CacheControl ?? '', 'max-age')).toBe(String(365 * 86_400));
    expect(CacheControl).toMatch(/(^|, )immutable(,|$)/);
  });
});
