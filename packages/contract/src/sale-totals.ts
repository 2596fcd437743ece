/**
 * The sale total of part 2 §9, computed exactly in integers, shared by the New Sale screen and the
 * server (which stores its own figures, never the client's):
 * total = Σ line totals (each rounded to 2 decimals) − sub-total × discount % / 100 + donation + delivery.
 * Rounding is half up (away from zero), on exact decimals: 3 × 0.335 = 1.005 → 1.01.
 */

const SCALE = 1_000_000n; // amounts are read with up to 6 decimals

/** `1.005` -> 1005000n (micro-units), exactly from the decimal text, not from binary floating point. */
function toMicro(value: number): bigint {
  const [whole = '0', fraction = ''] = Math.abs(value).toFixed(6).split('.');
  const micro = BigInt(whole) * SCALE + BigInt(fraction.padEnd(6, '0').slice(0, 6));
  return value < 0 ? -micro : micro;
}

/** Divides and rounds half away from zero. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n * 2n + d) / (d * 2n);
  return negative ? -quotient : quotient;
}

/** A line as the totals need it: quantity and the unit price in the sale's currency (units). */
export type SaleTotalsLine = { quantity: number; unitPrice: number };

/** Every figure in integer cents. */
export type SaleTotalsInCents = {
  lineTotals: number[];
  subTotal: number;
  discount: number;
  donation: number;
  deliveryCharge: number;
  total: number;
};

/** Computes the totals in cents (part 2 §9). `discountPercentage` is 0-100, amounts in units. */
export function computeSaleTotalsInCents(sale: {
  lines: ReadonlyArray<SaleTotalsLine>;
  discountPercentage: number;
  donation: number;
  deliveryCharge: number;
}): SaleTotalsInCents {
  const centsPerMicro = SCALE / 100n;
  const lineTotals = sale.lines.map((line) =>
    divideRounded(toMicro(line.quantity) * toMicro(line.unitPrice), SCALE * centsPerMicro),
  );
  const subTotal = lineTotals.reduce((sum, cents) => sum + cents, 0n);
  // discount % has up to 6 decimals: cents × micro-percent / (100 × 1e6)
  const discount = divideRounded(subTotal * toMicro(sale.discountPercentage), 100n * SCALE);
  const donation = divideRounded(toMicro(sale.donation), centsPerMicro);
  const deliveryCharge = divideRounded(toMicro(sale.deliveryCharge), centsPerMicro);
  const total = subTotal - discount + donation + deliveryCharge;
  return {
    lineTotals: lineTotals.map(Number),
    subTotal: Number(subTotal),
    discount: Number(discount),
    donation: Number(donation),
    deliveryCharge: Number(deliveryCharge),
    total: Number(total),
  };
}

/** The same totals in units (euros or francs) with 2 decimals, for display. */
export function computeSaleTotals(sale: Parameters<typeof computeSaleTotalsInCents>[0]) {
  const cents = computeSaleTotalsInCents(sale);
  const units = (value: number) => value / 100;
  return {
    lineTotals: cents.lineTotals.map(units),
    subTotal: units(cents.subTotal),
    discount: units(cents.discount),
    donation: units(cents.donation),
    deliveryCharge: units(cents.deliveryCharge),
    total: units(cents.total),
  };
}
