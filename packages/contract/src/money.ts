/**
 * Amounts of money, the one parser of the product (docs/spec/design.md §Contract decisions the spec
 * leaves open: money is `numeric(12,2)`, JSON numbers with at most 2 decimals, computed in cents).
 * Both the server (cents from stored amounts) and the client (amounts typed by staff) read money here.
 */

/** Units (a `numeric(12,2)` string or a number with at most 2 decimals) to integer cents, exactly. */
export function toCents(units: string | number): number {
  return Math.round(Number(units) * 100);
}

/** What {@link parseAmount} accepts besides positive amounts. */
export type ParseAmountOptions = {
  /** Accepts a leading minus sign; off by default (part 1 §9: "no negatives"). */
  allowNegative?: boolean;
};

// Spaces of every kind (French thousands: `1 234,56` with a space, a no-break or a narrow no-break
// space) and the Swiss apostrophe (`1'234.56`) only separate thousands.
const GROUPING = /[\s\u00a0\u202f'’]/g;
const GROUPED_BY_DOTS = /^\d{1,3}(\.\d{3})+$/;
const PLAIN = /^\d*$/;
/** 10 digits before the decimals: the largest `numeric(12,2)`. */
const MAX_WHOLE_DIGITS = 10;

/**
 * An amount as staff type it, in units (euros or francs) with at most 2 decimals, or null when the
 * text is not one. The comma is the decimal separator: `1,5` is 1.5 (never 15), `1 234,56` and
 * `1.234,56` are 1234.56. Without a comma, a dot followed by one or two digits is the decimal point
 * (`1.5` is 1.5) and dots between groups of three digits separate thousands (`1.234` is 1234).
 * A separator at the end while typing is allowed (`12,` is 12). `''` is null; so are a third decimal,
 * letters, and a minus sign unless `allowNegative`.
 */
export function parseAmount(text: string, { allowNegative = false }: ParseAmountOptions = {}): number | null {
  let rest = text.replace(GROUPING, '');
  let sign = 1;
  if (rest.startsWith('-')) {
    if (!allowNegative) return null;
    sign = -1;
    rest = rest.slice(1);
  }
  let whole: string;
  let fraction = '';
  const comma = rest.indexOf(',');
  if (comma >= 0) {
    whole = rest.slice(0, comma);
    fraction = rest.slice(comma + 1);
    if (GROUPED_BY_DOTS.test(whole)) whole = whole.replaceAll('.', '');
  } else if (GROUPED_BY_DOTS.test(rest)) {
    whole = rest.replaceAll('.', '');
  } else {
    const dot = rest.indexOf('.');
    whole = dot >= 0 ? rest.slice(0, dot) : rest;
    fraction = dot >= 0 ? rest.slice(dot + 1) : '';
  }
  if (!PLAIN.test(whole) || !PLAIN.test(fraction) || fraction.length > 2) return null;
  if (whole === '' && fraction === '') return null;
  if (whole.replace(/^0+/, '').length > MAX_WHOLE_DIGITS) return null;
  const cents = Number(whole || '0') * 100 + Number(fraction.padEnd(2, '0'));
  return cents === 0 ? 0 : (sign * cents) / 100;
}
