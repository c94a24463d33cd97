/**
 * The schema library every module builds its schemas from: zod/mini, the functional build of zod.
 * Its schemas are made of functions and checks (`z.optional(x)`, `x.check(z.maxLength(n))`), so a
 * bundle carries only the schema kinds and checks it uses; classic zod hangs every method on every
 * schema and so brings all of zod, about 99 KiB of each function. Classic also sets English
 * messages when imported and mini does not: they are set here, once, for every importer, so a 400
 * still reads "Too big: expected string to have <=200 characters".
 */
import { config } from 'zod/mini';
import { en } from 'zod/locales';

config(en());

export * from 'zod/mini';
