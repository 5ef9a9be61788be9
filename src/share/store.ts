/**
 * A read-only share link as stored (share/): only the SHA-256 of its token; times in ms. `kind`
 * "hook": `target` is the hook's id; "view": `target` is the view's name and `query` its query.
 */
export type ShareLinkRow = {
  id: string;
  tokenSha256: string;
  kind: "hook" | "view";
  target: string;
  query: string | null;
  /** JSON array of the channels its creator was limited to: the link shows no more. */
  channels: string | null;
  createdBy: string;
  createdAt: number;
  expiresAt: number;
};

/**
 * Storage of share links, on either backend (db/stores/share-links.ts). Every method is async;
 * any rejects with the database's own error when the database fails.
 */
export interface ShareLinkStore {
  insert(row: ShareLinkRow): Promise<void>;
  /** The link of this token hash (expired ones too: the caller checks expiresAt). */
  byTokenHash(tokenSha256: string): Promise<ShareLinkRow | undefined>;
  /** Links not expired at `now`, newest first. */
  list(now: number): Promise<ShareLinkRow[]>;
  /** Revokes a link (deletes it); false when there was none. */
  remove(id: string): Promise<boolean>;
  /** Deletes the links expired before `now`; how many went. */
  removeExpired(now: number): Promise<number>;
}
