/**
 * A unit's place as one phrase in the page's words: a house's street ("Calle Encino", or
 * "Calle 2" when its stage is not at hand or names none), any other unit's level ("Nivel 16").
 * core/site-plan.ts `unitPlace` says which.
 */
import type { UnitPlace } from '../../core/site-plan';

export const placeText = (
  place: UnitPlace,
  words: { street: (numero: number) => string; level: (nivel: number) => string },
): string =>
  place.kind === 'street' ? (place.nombre ?? words.street(place.numero)) : words.level(place.nivel);

/** The value of a "Calle" or "Nivel" row, whose label says which: the name, or the number. */
export const placeValue = (place: UnitPlace): string =>
  place.kind === 'street' ? (place.nombre ?? String(place.numero)) : String(place.nivel);
