import * as z from 'zod';
import { httpUrl, testMode } from '../schemas';

// ---- creator page ----
export const updateCreatorPageBody = z
  .object({
    title: z.string().trim().max(120),
    bio: z.string().trim().max(2000),
    avatarUrl: httpUrl.nullable(),
  })
  .partial();
export const linkBody = z.object({ title: z.string().trim().min(1).max(120), url: httpUrl });
export const updateLinkBody = linkBody.partial();
export const creatorLinkSchema = z.object({ _id: z.string(), title: z.string(), url: z.string(), createdAt: z.string(), updatedAt: z.string() });
export const creatorPageSchema = z.object({
  _id: z.string(),
  title: z.string(),
  bio: z.string(),
  avatarUrl: z.string().nullable(),
  links: z.array(creatorLinkSchema),
  testMode,
  createdAt: z.string(),
  updatedAt: z.string(),
});
