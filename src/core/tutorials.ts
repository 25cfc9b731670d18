/**
 * Tutorials (spec §3 "tutorials (activo)", §7 `GET wsObtenerTutoriales`): short guides a
 * corporate's administrators write (title and steps in Spanish and English), order and switch
 * on or off. Users see the active ones in order: as a first-visit tour and from the help menu.
 */

export interface TutorialText {
  titulo: string;
  /** The steps, one short paragraph each. */
  pasos: string[];
}

export interface Tutorial {
  id: string;
  /** Shown to users only when true (spec: "tutorials (activo)"). */
  activo: boolean;
  /** Position among the corporate's tutorials, from 1. */
  orden: number;
  es: TutorialText;
  en: TutorialText;
}

export const TUTORIAL_TITLE_MAX = 120;
export const TUTORIAL_STEP_MAX = 600;
export const TUTORIAL_STEPS_MAX = 12;
export const TUTORIALS_MAX = 30;

export type TutorialField = 'titulo' | 'pasos';

/** What is wrong with one tutorial, as `es.titulo`, `en.pasos`, … (empty: nothing). */
export function tutorialProblems(t: Pick<Tutorial, 'es' | 'en'>): string[] {
  const out: string[] = [];
  for (const lang of ['es', 'en'] as const) {
    const text = t[lang];
    const titulo = text.titulo.trim();
    if (titulo === '' || titulo.length > TUTORIAL_TITLE_MAX) out.push(`${lang}.titulo`);
    const pasos = text.pasos.map((p) => p.trim()).filter((p) => p !== '');
    if (
      pasos.length === 0 ||
      pasos.length > TUTORIAL_STEPS_MAX ||
      pasos.some((p) => p.length > TUTORIAL_STEP_MAX)
    )
      out.push(`${lang}.pasos`);
  }
  return out;
}

/**
 * The list as stored: trimmed, empty steps dropped, `orden` renumbered 1… in the order given
 * (the editor's order is the order users see).
 */
export function normalizeTutorials(list: readonly Tutorial[]): Tutorial[] {
  const text = (t: TutorialText): TutorialText => ({
    titulo: t.titulo.trim(),
    pasos: t.pasos.map((p) => p.trim()).filter((p) => p !== ''),
  });
  return list.map((t, i) => ({
    id: t.id,
    activo: t.activo,
    orden: i + 1,
    es: text(t.es),
    en: text(t.en),
  }));
}

/** What users see (`wsObtenerTutoriales`): the active tutorials, by `orden`. */
export function activeTutorials(list: readonly Tutorial[] | undefined): Tutorial[] {
  return (list ?? []).filter((t) => t.activo).sort((a, b) => a.orden - b.orden);
}

/** The tutorial's text in `lang` ('en' → English, anything else Spanish, the default). */
export function tutorialText(t: Tutorial, lang: string): TutorialText {
  return lang.startsWith('en') ? t.en : t.es;
}
