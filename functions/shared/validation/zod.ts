import { z } from 'zod/mini';
import { en } from 'zod/locales';

/**
 * The service's zod: the light `zod/mini` build (the classic build would add ~440 KB to every
 * function bundle), with English messages loaded once so that problem responses read well.
 */
z.config(en());

export { z };
