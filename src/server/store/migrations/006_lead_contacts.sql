-- Duplicate detection compares phones by their last 10 digits (core/lead.ts PHONE_MATCH_DIGITS:
-- the national number, so `+52 55 1234 5678` and `55 1234 5678` are one phone); these
-- expression indexes serve server/http/lead-contacts.ts findDuplicate.
CREATE INDEX rm_leads_telefono_match ON rm_leads (corporate_id, right(telefono_norm, 10)) WHERE NOT eliminado;
CREATE INDEX rm_leads_celular_match ON rm_leads (corporate_id, right(celular_norm, 10)) WHERE NOT eliminado;
