import { config } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

/**
 * The service's zod: the light `zod/mini` build with English messages, so that problem responses
 * read well. Import it as a namespace (`import * as z from …`): named exports let the bundler keep
 * only what a function uses (~15 KB), where one `z` object drags in all of zod (~430 KB).
 */
config(en());

export * from 'zod/mini';
