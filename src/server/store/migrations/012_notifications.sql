-- Notifications (issue 15). One row per notification (the document is core/notifications.ts
-- Notification) and one per recipient, with the recipient's read mark.
CREATE TABLE rm_notifications (
  id            text PRIMARY KEY,
  corporate_id  text NOT NULL,
  tipo          text NOT NULL,
  fecha_alta    timestamptz NOT NULL,
  doc           jsonb NOT NULL
);

CREATE TABLE rm_notification_inbox (
  user_id          text NOT NULL,
  notification_id  text NOT NULL,
  corporate_id     text NOT NULL,
  fecha_alta       timestamptz NOT NULL,
  leida            boolean NOT NULL DEFAULT false,
  PRIMARY KEY (user_id, notification_id)
);
-- A user's notifications of a corporate, newest first, and the unread count.
CREATE INDEX rm_notification_inbox_user ON rm_notification_inbox (user_id, corporate_id, fecha_alta DESC);

-- Per user and kind: whether it shows in the app and whether it is pushed (absent: both).
CREATE TABLE rm_notification_preferences (
  user_id   text NOT NULL,
  tipo      text NOT NULL,
  in_app    boolean NOT NULL,
  push      boolean NOT NULL,
  PRIMARY KEY (user_id, tipo)
);

-- Web push (VAPID): the deployment's one key pair, created on the first start.
CREATE TABLE push_vapid_keys (
  id           text PRIMARY KEY,
  public_key   text NOT NULL,
  private_key  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);

-- Browsers' push subscriptions (the user's `tokens`): one row per endpoint.
CREATE TABLE push_subscriptions (
  endpoint     text PRIMARY KEY,
  user_id      text NOT NULL,
  p256dh       text NOT NULL,
  auth         text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
