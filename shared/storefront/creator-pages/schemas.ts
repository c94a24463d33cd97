import * as z from '../../platform/zod';
import { httpUrl, testMode } from '../schemas';

// ---- creator page ----
export const updateCreatorPageBody = z.partial(
  z.object({
    title: z.string().check(z.trim(), z.maxLength(120)),
    bio: z.string().check(z.trim(), z.maxLength(2000)),
    avatarUrl: z.nullable(httpUrl),
  }),
);
export const linkBody = z.object({ title: z.string().check(z.trim(), z.minLength(1), z.maxLength(120)), url: httpUrl });
export const updateLinkBody = z.partial(linkBody);
export const creatorLinkSchema = z.object({ _id: z.string(), title: z.string(), url: z.string(), createdAt: z.string(), updatedAt: z.string() });
export const creatorPageSchema = z.object({
  _id: z.string(),
  title: z.string(),
  bio: z.string(),
  avatarUrl: z.nullable(z.string()),
  links: z.array(creatorLinkSchema),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
