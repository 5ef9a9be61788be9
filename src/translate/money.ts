/**
 * Money is integer cents inside and US dollars (numbers) on the wire. Rates are US dollars per
 * 1000 characters, kept in 1/10000 dollar so rates like 0.0125 stay exact.
 *
 * @example priceCents(1234, rateUnits(20)) === 2468 // 1234 characters at $20/1000 = $24.68
 */
export const RATE_SCALE = 10_000;

/** Dollars to cents; callers check wholeCents() first when the input comes from a client. */
export const toCents = (dollars: number): number => Math.round(dollars * 100);

/** Cents to the dollar number written in JSON. */
export const toDollars = (cents: number): number => cents / 100;

/**
 * Whether a dollar amount has at most two decimals: it is exactly the number its whole cents
 * spell. An absolute tolerance let 1e-9 through as 0 cents (a ledger entry of 0).
 *
 * @example wholeCents(19.99) === true; wholeCents(1.005) === false; wholeCents(1e-9) === false
 */
export const wholeCents = (dollars: number): boolean => Number.isFinite(dollars) && Math.round(dollars * 100) / 100 === dollars;

/** Whether a rate in dollars per 1000 characters is whole rate units (at most four decimals). */
export const wholeRateUnits = (dollarsPer1000: number): boolean =>
  Number.isFinite(dollarsPer1000) && Math.round(dollarsPer1000 * RATE_SCALE) / RATE_SCALE === dollarsPer1000;

/** A configured rate in dollars to integer rate units. */
export const rateUnits = (dollarsPer1000: number): number => Math.round(dollarsPer1000 * RATE_SCALE);

/** Rate units back to dollars per 1000 characters. */
export const rateDollars = (units: number): number => units / RATE_SCALE;

/** volume x rate / 1000, rounded half up to cents, in integer arithmetic. */
export function priceCents(volume: number, units: number): number {
  // dollars = volume * units / RATE_SCALE / 1000; cents = that * 100
  const divisor = (RATE_SCALE * 1000) / 100;
  return Math.floor((volume * units + divisor / 2) / divisor);
}
