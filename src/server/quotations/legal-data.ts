/**
 * The developer's legal data printed on every quotation (issue 19): its legal name
 * (`razonSocial`) and address (`domicilio`), set by the corporate's administrators as one
 * `ChangeCorporateSettings` on the corporate's stream. The same values again write nothing; an
 * empty text clears the field.
 */
import { corporateDecider } from '../../core/corporate';
export { LEGAL_ADDRESS_MAX, LEGAL_NAME_MAX } from '../../core/legal-data';
import type { Membership } from '../../core/permissions';
import type { Corporate } from '../../core/types';
import { corporateErrorToApi } from '../catalogue/corporate-errors';
import { streams } from '../catalogue/events';
import { runCommand, type CommandEnv } from '../store/command-handler';

/** The legal data as the settings screen edits it (empty text: not set). */
export interface LegalData {
  razonSocial: string;
  domicilio: string;
}

export function legalDataOf(corporate: Pick<Corporate, 'razonSocial' | 'domicilio'>): LegalData {
  return { razonSocial: corporate.razonSocial ?? '', domicilio: corporate.domicilio ?? '' };
}

/** Sets the corporate's legal name and address; answers them as they are now. */
export async function setLegalData(
  env: CommandEnv,
  m: Membership,
  data: LegalData,
): Promise<LegalData> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(corporateDecider, streams.corporate(corporate.id));
    const events = scope.decide(
      corporateDecider,
      loaded.state,
      {
        type: 'ChangeCorporateSettings',
        changes: { razonSocial: data.razonSocial.trim(), domicilio: data.domicilio.trim() },
      },
      corporateErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
    const state = events.reduce((s, e) => corporateDecider.evolve(s, e), loaded.state);
    return legalDataOf(state.corporate!);
  });
}
