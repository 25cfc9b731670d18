-- Sign-in with Firebase Authentication (issue 22): which Vitrina user each Firebase account (uid)
-- is. Owned by the firebase-links projection (auth/firebase-link.ts), folded from the
-- `FirebaseAccountLinked` events of the `firebase-account:<uid>` streams; a user may have more
-- than one uid (an account deleted and made again in Firebase), a uid names one user.
CREATE TABLE rm_firebase_links (
  uid        text PRIMARY KEY,
  user_id    text NOT NULL,
  email      text,
  linked_at  timestamptz NOT NULL
);
CREATE INDEX rm_firebase_links_user ON rm_firebase_links (user_id);
