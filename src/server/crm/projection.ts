/**
 * `rm_crm_config`: each corporate's CRM configuration, the `corporate-crm:<corporate>` stream
 * folded by the core's own `evolve` (the client secret stays encrypted in it).
 */
import { crmConfigDecider, type CrmConfigEvent } from '../../core/crm';
import type { Queryable } from '../store/db';
import type { Projection, StoredEvent } from '../store/event-store';

/** The stream of a corporate's CRM configuration. */
export const crmConfigStream = (corporateId: string) => `corporate-crm:${corporateId}`;

export const crmProjection: Projection = {
  name: 'crm',
  tables: ['rm_crm_config'],
  handles: ['CrmConfigured'],
  async apply(tx: Queryable, stored: StoredEvent) {
    const event = { type: stored.type, data: stored.data } as CrmConfigEvent;
    const state = crmConfigDecider.evolve(crmConfigDecider.initialState, event);
    await tx.query(
      `INSERT INTO rm_crm_config (corporate_id, doc) VALUES ($1, $2)
       ON CONFLICT (corporate_id) DO UPDATE SET doc = EXCLUDED.doc`,
      [event.data.idCorporativo, JSON.stringify(state.config)],
    );
  },
};
