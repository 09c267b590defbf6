import * as z from '../shared/validation/zod';

/**
 * The avatar answers of the interface (api-spec.md section 2), defined once: they type the domain
 * code and generate the OpenAPI document. The requests are in request-schemas.ts, apart, so that
 * the functions that validate them build none of these.
 */

/** Avatar: a stored, cropped avatar image. */
export const AvatarSchema = z.object({
  id: z.string().check(z.uuid()),
  created: z.string().check(z.iso.datetime()),
  enabled: z.boolean(),
  provider: z.string(),
  url: z.string().check(z.url()),
});
/** An avatar. */
export type Avatar = z.output<typeof AvatarSchema>;

/** The `avatars` object of a User: the enabled avatar's id and every avatar, newest first. */
export const AvatarsSchema = z.object({
  current: z.nullable(z.string().check(z.uuid())),
  items: z.array(AvatarSchema),
});

/** Answer of both avatar uploads: the stored avatar, enabled. */
export const AvatarUploadResultSchema = z.object({ avatar: AvatarSchema });

/** A presigned S3 POST form for one file (functions/avatars/uploads/upload-forms.ts). */
export const AvatarUploadFormSchema = z.object({
  url: z.string().check(z.url()),
  fields: z.record(z.string(), z.string()),
  source: z.string(),
  expires: z.string().check(z.iso.datetime()),
});
