/**
 * The chat assistant's settings on the corporate's stream (issue 18 point 4): the switch, the
 * welcome message per language and who answers, as one `ChangeCorporateSettings` through the
 * command handler. The same values again write nothing.
 */
import { corporateDecider } from '../../core/corporate';
import type { Membership } from '../../core/permissions';
import type { Corporate } from '../../core/types';
import { corporateErrorToApi } from '../catalogue/corporate-errors';
import { streams } from '../catalogue/events';
import { runCommand, type CommandEnv } from '../store/command-handler';

/** The chat settings of a corporate, as the settings screen edits them. */
export type ChatSettings = Required<
  Pick<Corporate, 'mostrarChat' | 'mensajeBienvenidaChat' | 'asistenteChat'>
>;

/** The chat settings in effect (defaults for a corporate that never set them). */
export function chatSettingsOf(corporate: Corporate): ChatSettings {
  return {
    mostrarChat: corporate.mostrarChat === true,
    mensajeBienvenidaChat: corporate.mensajeBienvenidaChat ?? {},
    asistenteChat: corporate.asistenteChat ?? 'inventario',
  };
}

/** Sets the corporate's chat settings; answers them as they are now. */
export async function configureChat(
  env: CommandEnv,
  m: Membership,
  settings: ChatSettings,
): Promise<ChatSettings> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(corporateDecider, streams.corporate(corporate.id));
    const events = scope.decide(
      corporateDecider,
      loaded.state,
      { type: 'ChangeCorporateSettings', changes: settings },
      corporateErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
    const state = events.reduce((s, e) => corporateDecider.evolve(s, e), loaded.state);
    return chatSettingsOf(state.corporate!);
  });
}
