import { defineEntity } from '../store/entity';
import { keys, type Scope } from '../store/keys';

/**
 * A download link: a capability item whose token is the secret of the link's address. It names
 * the account, mode and product it serves, what it was handed out for (a paid checkout or an
 * order), and until when it works.
 */
export interface DownloadLink {
  token: string;
  scope: Scope;
  productId: string;
  /** The paid checkout (thank-you page) or the order (receipt) the link was handed out for. */
  ref: string;
  validUntil: string;
  createdAt: string;
}

const downloadKey = (token: string) => keys.capability('download', token);

export const downloadLinkEntity = defineEntity<DownloadLink>()({
  entity: 'DownloadLink',
  version: 1,
  owner: 'receipts',
  key: downloadKey,
  keyArgs: ['token'],
  patterns: {
    byToken: { kind: 'get', summary: 'Download link by its token (GET /downloads/{productId}/{token})', key: downloadKey, args: ['token'] },
  },
  notes: 'TTL a day after validUntil',
});
