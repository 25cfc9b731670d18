/**
 * An appointment's title on screen (core/appointment-title.ts is the rule): a typed title as
 * typed; an automatic one (the person typed none) written now, in the interface's language, from
 * the appointment's kind and client, so switching the language rewrites it without a new read.
 */
import type { TipoCita } from '../../../../core/appointment';
import type { CitaView } from '../api/appointments';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The automatic title: "Visita · Ana García" (the kind alone without a client's name). */
export function automaticTitle(t: Translate, tipo: TipoCita, cliente: string): string {
  const kind = t(`form.tipos.${tipo}`);
  const name = cliente.trim();
  return name === '' ? kind : t('automaticTitle', { tipo: kind, cliente: name });
}

/** The title the reader sees. */
export function citaTitle(
  t: Translate,
  c: Pick<CitaView, 'titulo' | 'tituloAutomatico' | 'tipo' | 'nombreLead'>,
): string {
  return c.tituloAutomatico ? automaticTitle(t, c.tipo, c.nombreLead) : c.titulo;
}
