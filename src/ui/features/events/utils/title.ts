/**
 * An appointment's title on screen (core/appointment-title.ts is the rule): a typed title as
 * typed; an automatic one (the person typed none) written now, in the interface's language
 * (lib/appointment-title.ts).
 */
import { automaticTitle, type Translate } from '../../../lib/appointment-title';
import type { CitaView } from '../api/appointments';

/** The title the reader sees. */
export function citaTitle(
  t: Translate,
  c: Pick<CitaView, 'titulo' | 'tituloAutomatico' | 'tipo' | 'nombreLead'>,
): string {
  return c.tituloAutomatico ? automaticTitle(t, c.tipo, c.nombreLead) : c.titulo;
}
