-- Appointments (issue 23). One row per appointment, cancelled ones included (the document is
-- core/appointment.ts Cita): the calendar reads a corporate's range, an adviser's own range, a
-- lead's appointments and the overlaps of a slot.
CREATE TABLE rm_appointments (
  id              text PRIMARY KEY,
  corporate_id    text NOT NULL,
  adviser_id      text NOT NULL,
  lead_id         text NOT NULL,
  showroom_id     text NOT NULL,
  development_id  text NOT NULL,
  activo          boolean NOT NULL,
  fecha_inicio    timestamptz NOT NULL,
  fecha_fin       timestamptz NOT NULL,
  doc             jsonb NOT NULL
);
CREATE INDEX rm_appointments_range ON rm_appointments (corporate_id, fecha_inicio);
CREATE INDEX rm_appointments_adviser ON rm_appointments (corporate_id, adviser_id, fecha_inicio);
CREATE INDEX rm_appointments_lead ON rm_appointments (corporate_id, lead_id);

-- Each user's calendar subscription (the iCalendar feed): the current token's id; a new one
-- revokes the old URL.
CREATE TABLE calendar_feeds (
  user_id       text NOT NULL,
  corporate_id  text NOT NULL,
  token_id      text NOT NULL,
  created_at    timestamptz NOT NULL,
  PRIMARY KEY (user_id, corporate_id)
);
