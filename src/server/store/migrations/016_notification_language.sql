-- Notification preferences (issue 15 point 6): the language a user's push messages are written in
-- (their interface language; absent: es). Owned by the notifications projection, with
-- rm_notification_preferences (migration 012).
CREATE TABLE rm_notification_language (
  user_id  text PRIMARY KEY,
  idioma   text NOT NULL
);
