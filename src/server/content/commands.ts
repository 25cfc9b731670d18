/**
 * The corporate's content for users (issue 20): the featured developments (`destacados`) and
 * the tutorials, each one `ChangeCorporateSettings` on the corporate's stream (a
 * `CorporateSettingsChanged` event the catalogue projection patches into the corporate
 * document). The same values again write nothing.
 */
import { corporateDecider, type CorporateSettings } from '../../core/corporate';
import { normalizeFeatured, type FeaturedDevelopments } from '../../core/featured';
import type { Membership } from '../../core/permissions';
import {
  normalizeTutorials,
  tutorialProblems,
  TUTORIALS_MAX,
  type Tutorial,
} from '../../core/tutorials';
import type { Corporate } from '../../core/types';
import {
  changedSettings,
  developmentSettingsOf,
  normalizeDevelopmentSettings,
  type DevelopmentSettings,
} from '../../core/development-settings';
import { loadDevelopmentById, loadDevelopments } from '../catalogue/queries';
import { streams } from '../catalogue/events';
import { ApiError, badRequest } from '../http/errors';
import { runCommand, type CommandEnv } from '../store/command-handler';

async function changeSettings(
  env: CommandEnv,
  m: Membership,
  changes: CorporateSettings,
): Promise<Corporate> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(corporateDecider, streams.corporate(corporate.id));
    const events = scope.decide(
      corporateDecider,
      loaded.state,
      { type: 'ChangeCorporateSettings', changes },
      () => badRequest(),
    );
    await scope.emit(loaded.streamId, events);
    return events.reduce((s, e) => corporateDecider.evolve(s, e), loaded.state).corporate!;
  });
}

/**
 * Sets the featured developments: development ids of the corporate, in the order shown. 400
 * FEATURED_INVALID naming the ids that are not its developments (another corporate's too).
 */
export async function setFeatured(
  env: CommandEnv,
  m: Membership,
  items: string[],
): Promise<FeaturedDevelopments> {
  const developments = await loadDevelopments(env.store.db, m.corporate.id);
  const result = normalizeFeatured(items, new Set(developments.map((d) => d.id)));
  if (!result.ok) {
    throw new ApiError(400, 'FEATURED_INVALID', 'featured_invalid', {}, { error: result.error });
  }
  const corporate = await changeSettings(env, m, { destacados: result.featured });
  return corporate.destacados ?? { items: [] };
}

/**
 * Replaces the corporate's tutorials with `list` (the editor's order is `orden`); 400
 * TUTORIAL_INVALID with `campos` (`0.es.titulo`, …) when one is not valid, or ids repeat.
 */
export async function setTutorials(
  env: CommandEnv,
  m: Membership,
  list: Tutorial[],
): Promise<Tutorial[]> {
  const campos = list.flatMap((t, i) => tutorialProblems(t).map((f) => `${i}.${f}`));
  if (new Set(list.map((t) => t.id)).size !== list.length) campos.push('id');
  if (list.length > TUTORIALS_MAX) campos.push('tutoriales');
  if (campos.length > 0) {
    throw new ApiError(400, 'TUTORIAL_INVALID', 'tutorial_invalid', {}, { campos });
  }
  const corporate = await changeSettings(env, m, { tutoriales: normalizeTutorials(list) });
  return corporate.tutoriales ?? [];
}

/**
 * Sets a development's settings (core/development-settings.ts): the changed fields as one
 * `DevelopmentSettingsChanged` on the development's stream; nothing when nothing changed. 404
 * for a development the corporate does not have; 400 SETTINGS_INVALID with `campos`.
 */
export async function setDevelopmentSettings(
  env: CommandEnv,
  m: Membership,
  idDesarrollo: string,
  input: DevelopmentSettings,
) {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const development = await loadDevelopmentById(scope, corporate.id, idDesarrollo);
    if (!development) throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    const result = normalizeDevelopmentSettings(input, development.id);
    if (!result.ok) {
      throw new ApiError(400, 'SETTINGS_INVALID', 'validation', {}, { campos: result.campos });
    }
    const changes = changedSettings(development, result.settings);
    if (Object.keys(changes).length > 0) {
      await scope.emit(streams.development(corporate.id, development.id), [
        { type: 'DevelopmentSettingsChanged', data: { idDesarrollo: development.id, changes } },
      ]);
    }
    return developmentSettingsOf({ ...development, ...changes });
  });
}
