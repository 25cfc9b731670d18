/**
 * An appointment's automatic title on screen (core/appointment-title.ts is the rule): written now,
 * in the interface's language, from the appointment's kind and client, so switching the language
 * rewrites it without a new read. `t` is the `appointments` namespace's (its `form.tipos` and
 * `automaticTitle` texts); the calendar and a client's history both write it.
 */
import type { TipoCita } from '../../core/appointment';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The automatic title: "Visita · Ana García" (the kind alone without a client's name). */
export function automaticTitle(t: Translate, tipo: TipoCita, cliente: string): string {
  const kind = t(`form.tipos.${tipo}`);
  const name = cliente.trim();
  return name === '' ? kind : t('automaticTitle', { tipo: kind, cliente: name });
}
