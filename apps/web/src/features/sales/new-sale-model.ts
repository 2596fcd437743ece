import type { Product } from '@back-office/contract/products';
import type { ReferenceItem } from '@back-office/contract/reference-lists';
import { computeSaleTotals } from '@back-office/contract/sale-totals';
import { type CreateSaleInput, createSaleInputSchema, NEW_SALE_DEFAULTS } from '@back-office/contract/sales';
import type { Subscriber } from '@back-office/contract/subscribers';
import type { FormErrors } from '@mantine/form';

/**
 * The New Sale screen's values and rules (part 2 §2.6, §3 "Sale form fields" and "Sale create
 * payload", §4 New sale, §5 New sale, §9 defaults and the total formula). Every figure shown comes from
 * `computeSaleTotals` of `packages/contract`, the very function the server uses.
 */

/** §9: "Swiss currency symbol is CHF"; a sale that is not Swiss is in euros (as the server decides). */
export const SWISS_SYMBOL = 'CHF';
export const EURO_SYMBOL = '€';

/** §2.6 Country dropdown: "default ** Please Select ** with value 0". */
export const NO_COUNTRY = String(NEW_SALE_DEFAULTS.country);
export const PLEASE_SELECT_COUNTRY = '** Please Select **';

/** One line of the sale (§3 Sale line item): both unit prices are kept, the active one is shown. */
export type SaleLine = {
  /** Tells lines apart in the table (a product may be added twice). */
  key: string;
  productId: number;
  productName: string;
  euroUnitPrice: number;
  swissUnitPrice: number;
  /** A whole number above 0; `''` while the field is being retyped. */
  quantity: number | string;
};

/** §3 Sale form fields. Number fields hold `''` while empty. `country` is the country's id as a string. */
export type NewSaleValues = {
  orderNumber: string;
  addr1: string;
  addr2: string;
  addr3: string;
  town: string;
  postcode: string;
  country: string;
  deliveryAddress: string;
  includeThanks: boolean;
  swissSale: boolean;
  includeTerms: boolean;
  paymentTerms: number | string;
  notes: string;
  discountPercentage: number | string;
  deliveryCharge: number | string;
  donation: number | string;
  lines: SaleLine[];
};

/** §4: "The flag is set to true automatically if the subscriber's currency symbol contains 'chf'". */
export function isSwissSymbol(symbol: string | null | undefined): boolean {
  return (symbol ?? '').toLowerCase().includes('chf');
}

/** The currency of the figures shown: CHF for a Swiss sale, otherwise euros (§2.6 "active currency"). */
export function activeCurrencySymbol(swissSale: boolean): string {
  return swissSale ? SWISS_SYMBOL : EURO_SYMBOL;
}

/** The buyer's currency symbol (§4: "currency symbol to the subscriber's currency"), '' when unknown. */
export function subscriberCurrencySymbol(
  subscriber: Subscriber,
  currencies: readonly ReferenceItem[],
): string {
  return currencies.find((currency) => currency.id === subscriber.currencyId)?.symbol ?? '';
}

/**
 * The form's first values (§4 New sale, §9 defaults): address fields from the subscriber, the
 * subscriber's country when it is in the list (else "** Please Select **", 0), swissSale on when the
 * subscriber's currency symbol contains 'chf', payment terms 30 days, no discount, donation or delivery.
 */
export function initialNewSaleValues(
  subscriber: Subscriber,
  countries: readonly ReferenceItem[],
  currencySymbol: string,
): NewSaleValues {
  const knownCountry = countries.some((country) => country.id === subscriber.countryId);
  return {
    orderNumber: '',
    addr1: subscriber.address1,
    addr2: subscriber.address2,
    addr3: subscriber.address3,
    town: subscriber.town,
    postcode: subscriber.postcode,
    country: subscriber.countryId > 0 && knownCountry ? String(subscriber.countryId) : NO_COUNTRY,
    deliveryAddress: '',
    includeThanks: NEW_SALE_DEFAULTS.includeThanks,
    swissSale: NEW_SALE_DEFAULTS.swissSale || isSwissSymbol(currencySymbol),
    includeTerms: NEW_SALE_DEFAULTS.includePaymentTerms,
    paymentTerms: NEW_SALE_DEFAULTS.paymentTermDays,
    notes: '',
    discountPercentage: NEW_SALE_DEFAULTS.discountPercentage,
    deliveryCharge: NEW_SALE_DEFAULTS.deliveryCharge,
    donation: NEW_SALE_DEFAULTS.donation,
    lines: [],
  };
}

/** §2.6 Line adder: "Add Line button enabled only when a product is selected and quantity is non-zero". */
export function canAddLine(productId: string | null, quantity: number | string): boolean {
  return Boolean(productId) && typeof quantity === 'number' && Number.isFinite(quantity) && quantity !== 0;
}

let lineCounter = 0;

/** A new line of `quantity` items of `product`, with both of its current prices (§3 Sale line item). */
export function newSaleLine(product: Product, quantity: number): SaleLine {
  lineCounter += 1;
  return {
    key: `line-${lineCounter}`,
    productId: product.id,
    productName: product.name,
    euroUnitPrice: product.euroPrice,
    swissUnitPrice: product.swissPrice,
    quantity,
  };
}

/**
 * The lines after adding `quantity` items of `product` (part 2 §2.6 Line adder): when a line of the
 * same product at the same prices is there already, its quantity grows instead of a second line
 * appearing; a line made Free keeps its own prices and stays apart.
 */
export function addSaleLine(lines: readonly SaleLine[], product: Product, quantity: number): SaleLine[] {
  const index = lines.findIndex(
    (line) =>
      line.productId === product.id &&
      line.euroUnitPrice === product.euroPrice &&
      line.swissUnitPrice === product.swissPrice,
  );
  const existing = lines[index];
  if (!existing) return [...lines, newSaleLine(product, quantity)];
  const merged = { ...existing, quantity: quantityOf(existing.quantity) + quantity };
  return lines.map((line, at) => (at === index ? merged : line));
}

/** §2.6: "Unit price shown is the euro price when swissSale is off, the Swiss price when on". */
export function lineUnitPrice(line: SaleLine, swissSale: boolean): number {
  return swissSale ? line.swissUnitPrice : line.euroUnitPrice;
}

/** §2.6 Free: "sets both prices of the line to 0". */
export function freeLine(line: SaleLine): SaleLine {
  return { ...line, euroUnitPrice: 0, swissUnitPrice: 0 };
}

/** A number field's value as a number; empty or not a number gives 0 (for the figures while typing). */
function amount(value: number | string): number {
  const number = typeof value === 'number' ? value : Number(value.trim() || 0);
  return Number.isFinite(number) ? number : 0;
}

/**
 * Every figure of the screen (§9 "Sale total"): line totals, Sub-Total, Remise amount, Frais/livraison,
 * Dons and TOTAL, in the active currency, by the shared `computeSaleTotals`.
 */
export function newSaleTotals(
  values: Pick<NewSaleValues, 'lines' | 'swissSale' | 'discountPercentage' | 'donation' | 'deliveryCharge'>,
) {
  return computeSaleTotals({
    lines: values.lines.map((line) => ({
      quantity: amount(line.quantity),
      unitPrice: lineUnitPrice(line, values.swissSale),
    })),
    discountPercentage: amount(values.discountPercentage),
    donation: amount(values.donation),
    deliveryCharge: amount(values.deliveryCharge),
  });
}

function optionalNumber(value: number | string): number | null {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  return trimmed === '' ? null : Number(trimmed);
}

function quantityOf(value: number | string): number {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  return trimmed === '' ? 0 : Number(trimmed);
}

/**
 * The `POST /api/sales` body (§3 "Sale create payload"): fullName is title, first and last name;
 * currencySymbol the buyer's currency; country the chosen country's full name ('' for none).
 */
export function buildCreateSaleInput(
  values: NewSaleValues,
  subscriber: Subscriber,
  countries: readonly ReferenceItem[],
  currencySymbol: string,
): CreateSaleInput {
  const country = countries.find((item) => String(item.id) === values.country)?.name ?? '';
  return {
    subscriberId: subscriber.id,
    fullName: [subscriber.title, subscriber.firstName, subscriber.lastName]
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' '),
    association: subscriber.association,
    currencySymbol,
    discountPercentage: optionalNumber(values.discountPercentage),
    donation: optionalNumber(values.donation),
    deliveryCharge: optionalNumber(values.deliveryCharge),
    includeThanks: values.includeThanks,
    includePaymentTerms: values.includeTerms,
    paymentTermDays: optionalNumber(values.paymentTerms),
    swissSale: values.swissSale,
    addr1: values.addr1,
    addr2: values.addr2,
    addr3: values.addr3,
    town: values.town,
    postcode: values.postcode,
    orderNumber: values.orderNumber,
    deliveryAddress: values.deliveryAddress,
    country,
    items: values.lines.map((line) => ({
      productId: line.productId,
      productName: line.productName,
      quantity: quantityOf(line.quantity),
      euroUnitPrice: line.euroUnitPrice,
      swissUnitPrice: line.swissUnitPrice,
      unitPrice: lineUnitPrice(line, values.swissSale),
    })),
    notes: values.notes,
  };
}

/** Each product's stock as last loaded (`currentStock` by product id). */
export function stockByProduct(products: readonly Product[]): ReadonlyMap<number, number> {
  return new Map(products.map((product) => [product.id, product.currentStock]));
}

/** Under the quantity of a line over the stock, when Save is refused for it. */
export const MORE_THAN_IN_STOCK = 'More than in stock.';

/** "Only 3 in stock." under a line that asks for more than there is. */
export function overStockMessage(available: number): string {
  return `Only ${available} in stock.`;
}

/**
 * The lines that ask for more items than their product holds, by line index, with the message to
 * show. Lines of the same product add up (two lines of 2 over a stock of 3 are both flagged). A
 * product missing from `stock` (not loaded) is not judged: the server decides.
 */
export function stockShortfalls(
  lines: readonly Pick<SaleLine, 'productId' | 'quantity'>[],
  stock: ReadonlyMap<number, number>,
): Map<number, string> {
  const asked = new Map<number, number>();
  for (const line of lines) {
    asked.set(line.productId, (asked.get(line.productId) ?? 0) + quantityOf(line.quantity));
  }
  const shortfalls = new Map<number, string>();
  lines.forEach((line, index) => {
    const available = stock.get(line.productId);
    if (available !== undefined && (asked.get(line.productId) ?? 0) > available) {
      shortfalls.set(index, overStockMessage(available));
    }
  });
  return shortfalls;
}

/** Where an error of the create payload (contract or server: `items.0.quantity`) shows in the form. */
export function formFieldOfPayloadPath(path: string): string | null {
  const [head, index, field] = path.split('.');
  switch (head) {
    case 'items':
      if (index === undefined) return 'lines';
      return field === 'quantity' ? `lines.${index}.quantity` : `lines.${index}.productName`;
    case 'paymentTermDays':
      return 'paymentTerms';
    case 'includePaymentTerms':
      return 'includeTerms';
    case 'discountPercentage':
    case 'donation':
    case 'deliveryCharge':
    case 'includeThanks':
    case 'swissSale':
    case 'addr1':
    case 'addr2':
    case 'addr3':
    case 'town':
    case 'postcode':
    case 'orderNumber':
    case 'deliveryAddress':
    case 'country':
    case 'notes':
      return head;
    default:
      return null;
  }
}

/** The buyer's address fields a Swiss QR-bill needs, with their words in the message. */
const QR_BILL_ADDRESS_FIELDS = [
  ['postcode', 'postcode'],
  ['town', 'town'],
  ['country', 'country'],
] as const;

/**
 * Validates the form as the server will (§5 New sale: "saved only if the form is valid and has at least
 * one item line"), by the contract's schema over the payload, and (with `stock`) refuses a line over
 * the stock last loaded; a sale in francs also needs the buyer's postcode, town and country (its
 * invoice's QR-bill). Errors are keyed by form field.
 */
export function validateNewSale(
  values: NewSaleValues,
  subscriber: Subscriber,
  countries: readonly ReferenceItem[],
  currencySymbol: string,
  stock: ReadonlyMap<number, number> = new Map(),
): FormErrors {
  const errors: FormErrors = {};
  for (const index of stockShortfalls(values.lines, stock).keys()) {
    errors[`lines.${index}.quantity`] = MORE_THAN_IN_STOCK;
  }
  if (values.swissSale) {
    // Its invoice ends with a QR-bill, whose debtor needs these (the server says so too; decision 031).
    for (const [field, label] of QR_BILL_ADDRESS_FIELDS) {
      const value = values[field].trim();
      if (value === '' || value === NO_COUNTRY)
        errors[field] = `The buyer's ${label} is required for a sale in francs.`;
    }
  }
  const parsed = createSaleInputSchema.safeParse(
    buildCreateSaleInput(values, subscriber, countries, currencySymbol),
  );
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = formFieldOfPayloadPath(issue.path.join('.'));
    if (field && errors[field] === undefined) errors[field] = issue.message;
  }
  return errors;
}
