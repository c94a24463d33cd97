import { unwrap, type Api } from '../../../api/client';
import { EVERYONE, withTag } from '../../../lib/compose';

export type Audience = { kind: 'all' } | { kind: 'tag'; tag: string } | { kind: 'segment'; segmentId: string };

/**
 * How many subscribed contacts a post to `audience` reaches now: the segment's own count, or the
 * segment preview of the same selection (everyone, or a tag). Null when it cannot be said yet.
 */
export async function recipientCount(api: Api, audience: Audience): Promise<number | null> {
  if (audience.kind === 'segment')
    return audience.segmentId ? (await unwrap(api.GET('/newsletters/segments/{id}/count', { params: { path: { id: audience.segmentId } } }))).count : null;
  if (audience.kind === 'tag' && !audience.tag.trim()) return null;
  const definition = audience.kind === 'all' ? EVERYONE : withTag(audience.tag.trim());
  const preview = await unwrap(api.POST('/newsletters/segments/preview', { body: { definition } }));
  return preview.count;
}

export const audienceOfPost = (p: { segmentId: string | null; tag: string | null }): Audience =>
  p.segmentId ? { kind: 'segment', segmentId: p.segmentId } : p.tag ? { kind: 'tag', tag: p.tag } : { kind: 'all' };
