/**
 * The avatar bucket's logical id and the variable that carries its deployed name, apart from its
 * description (avatar-bucket.ts): the data configuration reads the name at cold start without
 * loading the bucket's settings, as it reads the table names (tables/table-names.ts).
 */
export const AVATAR_BUCKET_NAME = { id: 'avatars', nameEnv: 'AVATAR_BUCKET_NAME' } as const;
