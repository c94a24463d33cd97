/** The creator page (one per account and mode) and its links, as stored. */
export const CREATOR_PAGE = 'CREATOR_PAGE';

export interface CreatorPageRecord {
  _id: string;
  title: string;
  bio: string;
  avatarUrl: string | null;
  testMode: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface CreatorLinkRecord {
  _id: string;
  title: string;
  url: string;
  createdAt: string;
  updatedAt: string;
}
