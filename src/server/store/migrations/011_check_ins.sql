-- Showroom check-in (issue 14). One row per check-in (the document is core/check-in.ts CheckIn,
-- ended or not): the adviser's active one, a showroom's board ("on duty now") and its history per
-- day read it. Guests of a showroom (core/showroom-guests.ts), one row per guest not removed.
CREATE TABLE rm_check_ins (
  id            text PRIMARY KEY,
  corporate_id  text NOT NULL,
  user_id       text NOT NULL,
  showroom_id   text NOT NULL,
  activo        boolean NOT NULL,
  fecha_alta    timestamptz NOT NULL,
  fecha_salida  timestamptz,
  doc           jsonb NOT NULL
);
-- The adviser's active check-in (at most one per corporate: the aggregate's rule).
CREATE INDEX rm_check_ins_user ON rm_check_ins (corporate_id, user_id) WHERE activo;
-- A showroom's check-ins of a day, and who is on duty now.
CREATE INDEX rm_check_ins_showroom ON rm_check_ins (corporate_id, showroom_id, fecha_alta);

CREATE TABLE rm_showroom_guests (
  id            text PRIMARY KEY,
  corporate_id  text NOT NULL,
  showroom_id   text NOT NULL,
  fecha_visita  text NOT NULL,
  doc           jsonb NOT NULL
);
CREATE INDEX rm_showroom_guests_showroom ON rm_showroom_guests (corporate_id, showroom_id, fecha_visita);
