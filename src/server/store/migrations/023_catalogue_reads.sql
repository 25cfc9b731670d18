-- Catalogue reads (issue 21). Two read models kept by the catalogue projection:
--
-- rm_catalogue_revisions: per corporate, how many catalogue events (corporate, showroom,
-- development, cluster, prototype, unit, media) it has had and the highest log position among
-- them. The catalogue reads derive their ETag from it, so a revalidation (304) reads one row. A
-- count, not only the position: transactions may commit out of position order.
--
-- rm_development_figures: per development and unit status, the units in that status, the lowest
-- price among them (a unit's own above 0, else its prototype's above 0) and the lowest rent
-- (its numeric precioRenta above 0). The development list reads these rows instead of scanning
-- every unit of the corporate; which statuses show their price is decided at read time.
--
-- Both are filled here from the existing read models and the log, with the projection's rules.
CREATE TABLE rm_catalogue_revisions (
  corporate_id  text PRIMARY KEY,
  revision      bigint NOT NULL,
  last_position bigint NOT NULL
);
INSERT INTO rm_catalogue_revisions (corporate_id, revision, last_position)
SELECT corporate_id, count(*), max(global_position)
  FROM events
 WHERE corporate_id IS NOT NULL
   AND type IN ('CorporateRegistered', 'CorporateSettingsChanged', 'ShowroomConfigured',
                'DevelopmentPublished', 'DevelopmentSettingsChanged', 'ClusterAdded',
                'PrototypeAdded', 'UnitListed', 'UnitStatusChanged', 'UnitHeld',
                'UnitHoldExtended', 'UnitHoldReleased', 'UnitPriceChanged', 'MediaStored',
                'MediaUploaded', 'DevelopmentMediaAdded')
 GROUP BY corporate_id;

CREATE TABLE rm_development_figures (
  development_id  text NOT NULL,
  status          text NOT NULL,
  corporate_id    text NOT NULL,
  units           integer NOT NULL,
  precio_min      numeric,
  renta_min       numeric,
  PRIMARY KEY (development_id, status)
);
CREATE INDEX rm_development_figures_corporate ON rm_development_figures (corporate_id);
INSERT INTO rm_development_figures (development_id, status, corporate_id, units, precio_min, renta_min)
SELECT u.development_id, coalesce(u.doc->>'status', ''), min(u.corporate_id), count(*)::int,
       min(CASE WHEN jsonb_typeof(u.doc->'precio') = 'number' AND (u.doc->>'precio')::numeric > 0
                  THEN (u.doc->>'precio')::numeric
                WHEN jsonb_typeof(p.doc->'precio') = 'number' AND (p.doc->>'precio')::numeric > 0
                  THEN (p.doc->>'precio')::numeric END),
       min(CASE WHEN jsonb_typeof(u.doc->'precioRenta') = 'number'
                 AND (u.doc->>'precioRenta')::numeric > 0
                  THEN (u.doc->>'precioRenta')::numeric END)
  FROM rm_units u
  LEFT JOIN rm_prototypes p ON p.corporate_id = u.corporate_id AND p.id = u.doc->>'idPrototipo'
 GROUP BY u.development_id, coalesce(u.doc->>'status', '');

-- The availability read by cluster (a page of towers, issue 21).
CREATE INDEX rm_units_dev_cluster ON rm_units (development_id, cluster_id);
