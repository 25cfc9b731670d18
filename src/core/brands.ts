/**
 * Branded number and string types: the compiler keeps cents, square metres, kilometres and
 * currency codes apart, at no runtime cost.
 */

declare const brand: unique symbol;

/** A `T` tagged with the unit `B`; build one with the module's constructor function. */
export type Brand<T, B extends string> = T & { readonly [brand]: B };

/** An amount of money as an integer number of cents (minor units). */
export type Money = Brand<number, 'Money'>;

/** An area in square metres, the stored unit. */
export type SquareMeters = Brand<number, 'SquareMeters'>;

/** An area in square feet, a display unit. */
export type SquareFeet = Brand<number, 'SquareFeet'>;

/** A distance in kilometres. */
export type Kilometers = Brand<number, 'Kilometers'>;

/** An ISO-4217-like currency code as the corporate configures it (`'MXN'`, `'USD'`). */
export type CurrencyCode = Brand<string, 'CurrencyCode'>;
