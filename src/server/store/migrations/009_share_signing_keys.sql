-- Share links are signed with a key of the deployment (issue 13): one for every server process
-- and every restart, kept here rather than in each process's memory. A token names its key
-- (`kid`), so a new key can be added (rotation) while links signed by the previous ones keep
-- working; deleting a key retires it and every link it signed. The newest key signs new links.
CREATE TABLE share_signing_keys (
  kid         text PRIMARY KEY,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
-- The key a share link was signed with, so the adviser's list shows the very link they were given.
ALTER TABLE rm_quotation_shares ADD COLUMN kid text;
