/**
 * How figures are shown (spec §9): prices in the currency chosen in the settings modal (MXN when
 * the corporate does not offer it), whole units, and areas in the chosen unit. Every price and
 * area a page shows, signed in or public, goes through these. The rules live in the core
 * (core/display.ts), so the core worker's display rows (core/display-rows.ts) apply the same ones.
 */

export {
  displayedPrice,
  formatAreaIn,
  formatPrice,
  makeDisplay,
  priceFromDisplay,
  type Display,
} from '../../core/display';
