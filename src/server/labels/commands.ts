/**
 * A corporate's labels per language (issue 19, core/corporate-labels.ts) as one
 * `ChangeCorporateSettings` on the corporate's stream (`etiquetas`), through the command handler:
 * the corporate's projection keeps them on its document. The same labels again write nothing.
 */
import { corporateDecider } from '../../core/corporate';
import {
  normaliseLabels,
  type CorporateLabels,
  type LabelLanguage,
} from '../../core/corporate-labels';
import type { Membership } from '../../core/permissions';
import { streams } from '../catalogue/events';
import { ApiError, badRequest } from '../http/errors';
import { runCommand, type CommandEnv } from '../store/command-handler';

/** Sets one language's labels (replacing that language's); answers every language's. */
export async function setCorporateLabels(
  env: CommandEnv,
  m: Membership,
  lang: LabelLanguage,
  input: Record<string, Record<string, string>>,
): Promise<CorporateLabels> {
  const normalised = normaliseLabels(input);
  if (!normalised.ok) throw badRequest(normalised.problems);
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(corporateDecider, streams.corporate(corporate.id));
    const current = loaded.state.corporate?.etiquetas ?? {};
    const etiquetas: CorporateLabels = { ...current, [lang]: normalised.labels };
    const events = scope.decide(
      corporateDecider,
      loaded.state,
      { type: 'ChangeCorporateSettings', changes: { etiquetas } },
      () => new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found'),
    );
    await scope.emit(loaded.streamId, events);
    const state = events.reduce((s, e) => corporateDecider.evolve(s, e), loaded.state);
    return state.corporate?.etiquetas ?? {};
  });
}
