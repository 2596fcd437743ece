import { addCalendarDays, calendarDay, DEFAULT_TIME_ZONE } from '@back-office/contract/calendar';
import { templateOrDefault } from '@back-office/contract/email-templates';
import { computeSaleTotalsInCents } from '@back-office/contract/sale-totals';
import type {
  CreateSale,
  RecordPaymentInput,
  Sale,
  SaleLineInput,
  SaleSearchQuery,
  SaleSummary,
} from '@back-office/contract/sales';
import { REMINDER_INTERVAL_DAYS } from '@back-office/contract/settings';
import { sql } from 'drizzle-orm';
import { type Database, type Executor, queryRows } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { composeEmail } from '../../lib/email-html.ts';
import { AppError } from '../../lib/errors.ts';
import { centsToNumeric, formatAmount, toCents } from '../../lib/money.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { DonationWrites } from '../donations/donations.service.ts';
import { frenchDate } from '../donations/receipt-document.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import { createInsufficientStockError, insufficientStock } from '../products/products.errors.ts';
import { isDonationProduct } from '../products/products.service.ts';
import type { EffectiveSettings, SettingsService } from '../settings/settings.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { type CreditNotesRepository, createCreditNotesRepository } from './credit-notes.repository.ts';
import { renderInvoicePdf } from './invoice-document.ts';
import { invoicePaymentFor } from './payment-reference.ts';
import { qrBillBuyerProblems, requirePaymentPart } from './qr-bill.ts';
import { createSalePaymentsRepository, type SalePaymentsRepository } from './sale-payments.repository.ts';
import { putSaleItemsBack, quantitiesByProduct } from './sale-stock.ts';
import {
  createReminderTooSoonError,
  createSaleAlreadyCancelledError,
  createSaleGiftReceiptedError,
  createSaleInvalidError,
  createSaleInvoiceIssuedError,
  createSaleInvoiceNotIssuedError,
  createSaleNoEmailError,
  createSaleNotFoundError,
  createSaleNotOverdueError,
  createSaleSubscriberUnknownError,
} from './sales.errors.ts';
import type { SaleRow, SalesRepository } from './sales.repository.ts';

const units = (numeric: string) => Number(numeric);

type CataloguePrices = { euroPrice: string; swissPrice: string };

/**
 * The price a line is charged at, checked against the catalogue: the product's price in the sale's
 * currency (euro, or Swiss for a Swiss sale), or 0 for a free line. The client never sets a price.
 * @returns the catalogue's prices for the line (both 0 when free), or the field error of the line.
 */
export function checkLinePrice(
  item: SaleLineInput,
  index: number,
  product: CataloguePrices,
  swissSale: boolean,
): { euroUnitPrice: number; swissUnitPrice: number; unitPrice: number } | { path: string; message: string } {
  const field = swissSale ? 'swissUnitPrice' : 'euroUnitPrice';
  const catalogue = toCents(units(swissSale ? product.swissPrice : product.euroPrice));
  const fits = (price: number) => toCents(price) === catalogue || toCents(price) === 0;
  const charged = item[field];
  const currency = swissSale ? 'Swiss' : 'euro';
  const message = `The ${currency} price must be the catalogue's (${(catalogue / 100).toFixed(2)}) or 0 for a free line.`;
  if (!fits(charged)) return { path: `items.${index}.${field}`, message };
  if (item.unitPrice !== undefined && toCents(item.unitPrice) !== toCents(charged)) {
    return { path: `items.${index}.unitPrice`, message };
  }
  if (toCents(charged) === 0) return { euroUnitPrice: 0, swissUnitPrice: 0, unitPrice: 0 };
  return {
    euroUnitPrice: units(product.euroPrice),
    swissUnitPrice: units(product.swissPrice),
    unitPrice: catalogue / 100,
  };
}

/**
 * The gift part of a sale, in integer cents of the sale's currency (part 2 §2.6 New sale): its "Dons"
 * (`donationCents`) plus what the buyer pays for the lines of the donation product
 * ({@link isDonationProduct}), that is their line totals less their share of the sale's discount, as
 * a tax receipt may only certify what was received (CGI art. 200). `unitPrice` is in units.
 */
function giftPartInCents(
  lines: Array<{ productName: string; quantity: number; unitPrice: number }>,
  discountPercentage: number,
  donationCents: number,
): number {
  const giftLines = lines.filter((line) => isDonationProduct(line.productName));
  const paidForGiftLines =
    giftLines.length === 0
      ? 0
      : computeSaleTotalsInCents({ lines: giftLines, discountPercentage, donation: 0, deliveryCharge: 0 })
          .total;
  return donationCents + paidForGiftLines;
}

/**
 * The invoice PDF of a sale as found by the repository (its invoice issued), named
 * `sale-invoice-{ref}.pdf`, ending with its payment part (QR-bill or EPC QR code, ./qr-bill.ts).
 * @throws 409 `sales.qr_bill_impossible` when its QR-bill needs settings completed.
 */
async function renderInvoice(
  found: NonNullable<Awaited<ReturnType<SalesRepository['findSale']>>>,
  settings: EffectiveSettings,
) {
  const paymentPart = requirePaymentPart(found, settings, { issued: true });
  const pdf = await renderInvoicePdf(
    { sale: found.sale, lines: found.lines, currencySymbol: found.currencySymbol, paymentPart },
    settings,
  );
  return { filename: `sale-invoice-${found.sale.ref}.pdf`, pdf };
}

/** A payment to record: the sale, its day and amount, manual or from a bank statement entry. */
export type PaymentToRecord = RecordPaymentInput & {
  saleId: number;
  source: 'manual' | 'statement';
  entryRef?: string;
};

/**
 * Sales, their stock movements, sequential references and the donation their gift makes (part 2
 * §2.5-2.6, §7 Sales; docs/decisions/010, 025).
 */
export function createSalesService({
  db,
  clock,
  timeZone = DEFAULT_TIME_ZONE,
  repository,
  subscribersService,
  settingsService,
  donations,
  creditNotes = createCreditNotesRepository(),
  salePayments = createSalePaymentsRepository(),
  mailRepository,
  onMailQueued,
}: {
  db: Database;
  /** When a sale is made (its `addedOn`). */
  clock: Clock;
  /** IANA zone of the day a sale's gift is dated (docs/decisions/012). */
  timeZone?: string;
  repository: SalesRepository;
  subscribersService: SubscribersService;
  settingsService: SettingsService;
  /** Where the gift of a sale becomes a donation of the buyer, and goes with the sale's deletion. */
  donations: DonationWrites;
  /** Where the sale's cancellation (credit note) is read and its invoice marked as issued. */
  creditNotes?: CreditNotesRepository;
  /** Where the payments of its invoice are kept (docs/decisions/032). */
  salePayments?: SalePaymentsRepository;
  /** Where payment reminders are queued, and the nudge of the sender once they are committed. */
  mailRepository: Pick<MailRepository, 'enqueue'>;
  onMailQueued: () => void;
}) {
  const notFound = (id: number) => createSaleNotFoundError(`No sale has id ${id}.`);

  async function loadSale(db: Executor, id: number): Promise<Sale> {
    const found = await repository.findSale(db, id);
    if (!found) throw notFound(id);
    const { sale, lines } = found;
    const creditNote = await creditNotes.findBySale(db, id);
    const payments = await salePayments.list(db, id);
    // The invoice's date is the day of the sale, as it prints it with its due date.
    const invoiceDay = sale.invoiceIssuedAt ? calendarDay(sale.addedOn, timeZone) : null;
    return {
      id: sale.id,
      ref: sale.ref,
      subscriberId: sale.subscriberId,
      subscriberName: sale.fullName,
      total: units(sale.total),
      currencyName: found.currencyName,
      currencySymbol: found.currencySymbol,
      addedBy: sale.addedBy,
      dateAdded: sale.addedOn.toISOString(),
      postCode: sale.postcode,
      saleDetails: lines.map((line) => ({
        productId: line.productId,
        productName: line.productName,
        quantity: line.quantity,
        euroUnitPrice: units(line.euroUnitPrice),
        swissUnitPrice: units(line.swissUnitPrice),
        unitPrice: units(line.unitPrice),
        lineTotal: units(line.lineTotal),
      })),
      invoiceIssued: sale.invoiceIssuedAt !== null,
      status: creditNote ? 'cancelled' : 'active',
      creditNoteNumber: creditNote?.number ?? null,
      paymentReference: sale.paymentReference,
      paymentStatus: await salePayments.statusOf(db, id, timeZone, calendarDay(clock.now(), timeZone)),
      dueDate: invoiceDay ? addCalendarDays(invoiceDay, sale.paymentTermDays) : null,
      paidAmount: units(sale.paidAmount),
      reminderLevel: sale.reminderLevel,
      lastReminderOn: sale.lastReminderOn,
      payments: payments.map((payment) => ({
        id: payment.id,
        date: payment.paidOn,
        amount: units(payment.amount),
        source: payment.source,
        ...(payment.entryRef ? { entryRef: payment.entryRef } : {}),
        recordedBy: payment.recordedBy,
      })),
    };
  }

  /**
   * Why a payment of `amount` cents on `date` cannot be recorded for `sale` (null when it can), given
   * its credit note's number and the cents that remain to pay; the errors `recordPaymentOn` throws.
   */
  function paymentRefusal(
    id: number,
    locked: { sale: SaleRow; currencySymbol: string } | undefined,
    creditNoteNumber: number | undefined,
    payment: { date: string; cents: number },
    remaining: number,
    today: string,
  ): AppError | null {
    if (!locked) return notFound(id);
    const { sale } = locked;
    if (sale.invoiceIssuedAt === null) {
      return createSaleInvoiceNotIssuedError(
        `No invoice was issued for the sale #${sale.ref}: nothing is due yet.`,
      );
    }
    if (creditNoteNumber !== undefined) {
      return createSaleAlreadyCancelledError(
        `The sale #${sale.ref} is cancelled by the credit note n° ${creditNoteNumber}: nothing is due.`,
      );
    }
    if (payment.date > today) {
      const message = 'The date cannot be in the future.';
      return createSaleInvalidError(`The payment date ${payment.date} is after today.`, [
        { path: 'date', message },
      ]);
    }
    if (payment.cents > remaining) {
      const message =
        remaining > 0
          ? `At most ${formatAmount(remaining / 100, locked.currencySymbol)} remains to pay.`
          : 'This invoice is paid in full.';
      return createSaleInvalidError(message, [{ path: 'amount', message }]);
    }
    return null;
  }

  /**
   * Records, on the caller's transaction, payments of issued invoices (docs/decisions/032), a few
   * statements whatever their number (a bank statement brings thousands): each `date` (`YYYY-MM-DD`,
   * not after today in the organisation's zone), `amount` (units of the sale's currency; with the
   * payments before it in the list, at most what remains to pay), `source` and, from a statement, the
   * bank's `entryRef`. The sales are locked in id order, their `paid_amount` raised, and each buyer's
   * history says "Payment of 20,00 € dated … recorded for the invoice of the sale #12.".
   * @returns per payment, its id, or the error that refused it (see `recordPaymentOn`); nothing is
   *   written for a refused one.
   */
  async function recordPaymentsOn(
    tx: Executor,
    payments: ReadonlyArray<PaymentToRecord>,
    user: AuthUser,
  ): Promise<Array<number | AppError>> {
    const saleIds = [...new Set(payments.map((payment) => payment.saleId))].sort((a, b) => a - b);
    const locked = new Map((await repository.lockSales(tx, saleIds)).map((row) => [row.sale.id, row]));
    const cancelled = await creditNotes.numbersBySale(tx, saleIds);
    const remaining = new Map(
      [...locked].map(([id, row]) => [id, toCents(row.sale.total) - toCents(row.sale.paidAmount)]),
    );
    const today = calendarDay(clock.now(), timeZone);
    const results: Array<number | AppError> = [];
    const accepted: Array<{
      index: number;
      payment: PaymentToRecord;
      row: { sale: SaleRow; currencySymbol: string };
    }> = [];
    for (const [index, payment] of payments.entries()) {
      const row = locked.get(payment.saleId);
      const cents = toCents(payment.amount);
      const refusal = paymentRefusal(
        payment.saleId,
        row,
        cancelled.get(payment.saleId),
        { date: payment.date, cents },
        remaining.get(payment.saleId) ?? 0,
        today,
      );
      if (refusal || !row) {
        results[index] = refusal ?? notFound(payment.saleId);
        continue;
      }
      remaining.set(payment.saleId, (remaining.get(payment.saleId) ?? 0) - cents);
      accepted.push({ index, payment, row });
    }
    const ids = await salePayments.insertMany(
      tx,
      accepted.map(({ payment }) => ({
        saleId: payment.saleId,
        paidOn: payment.date,
        amount: centsToNumeric(toCents(payment.amount)),
        source: payment.source,
        ...(payment.entryRef ? { entryRef: payment.entryRef } : {}),
        recordedBy: user.fullName,
      })),
    );
    await subscribersService.addHistoryLines(
      tx,
      accepted.map(({ payment, row }) => ({
        subscriberId: row.sale.subscriberId,
        userName: user.fullName,
        description: `Payment of ${formatAmount(payment.amount, row.currencySymbol)} dated ${payment.date} recorded for the invoice of the sale #${row.sale.ref}${payment.source === 'statement' ? ' from a bank statement' : ''}.`,
      })),
    );
    for (const [position, { index }] of accepted.entries()) results[index] = ids[position] ?? 0;
    return results;
  }

  /**
   * Records one payment of sale `id`'s invoice on the caller's transaction: see `recordPaymentsOn`.
   * @returns the payment's id.
   * @throws 404; 409 `sales.invoice_not_issued` before the invoice is issued; 409
   *   `sales.already_cancelled` once a credit note cancelled it; 400 `sales.invalid` naming `date`
   *   (in the future) or `amount` (more than remains to pay).
   */
  async function recordPaymentOn(
    tx: Executor,
    id: number,
    payment: Omit<PaymentToRecord, 'saleId'>,
    user: AuthUser,
  ): Promise<number> {
    const [result] = await recordPaymentsOn(tx, [{ ...payment, saleId: id }], user);
    if (result === undefined || result instanceof AppError) throw result ?? notFound(id);
    return result;
  }

  return {
    /** `GET /api/sales`: the matching sales, newest first (a list, as part 2 §7 says). */
    search: async (query: SaleSearchQuery): Promise<SaleSummary[]> => {
      const rows = await repository.search(db, query, calendarDay(clock.now(), timeZone));
      return rows.map((row) => ({
        id: row.id,
        subscriberId: row.subscriberId,
        fullName: row.fullName,
        total: units(row.total),
        currencyName: row.currencyName,
        currencySymbol: row.currencySymbol,
        dateAdded: row.addedOn.toISOString(),
        postcode: row.postcode,
        address: [row.addr1, row.town].filter(Boolean).join(', '),
        ref: row.ref,
        invoiceIssued: row.invoiceIssuedAt !== null,
        status: row.creditNoteNumber !== null ? ('cancelled' as const) : ('active' as const),
        creditNoteNumber: row.creditNoteNumber,
        paymentStatus: row.paymentStatus,
        reminderLevel: row.reminderLevel,
        lastReminderOn: row.lastReminderOn,
      }));
    },

    /** One sale with its lines. @throws 404 */
    get: (id: number) => loadSale(db, id),

    /**
     * `POST /api/sales`: recomputes every figure, allocates the next reference, takes the items out
     * of stock (one `sale` movement per product) and writes the buyer's history, in one transaction.
     * Unit prices and product names come from the catalogue; a line may only be free (0) instead.
     * The sale is made at the clock's now; when its gift part ({@link giftPartInCents}) is more than
     * 0, the same transaction records it as a donation of the buyer in the sale's currency, dated the
     * sale's day in the organisation's time zone, noted "Don de la vente n° {ref}" and linked to the
     * sale, so that it is receipted like any other gift (part 2 §2.6 New sale; CGI art. 200). Invoice
     * and totals are unchanged: the gift stays a sale amount too.
     * @throws 400 `sales.unknown_subscriber` (field `subscriberId`) or `sales.invalid` (fields
     *   `items.N.productId`, `items.N.euroUnitPrice` / `swissUnitPrice` / `unitPrice`; for a sale in
     *   francs, whose invoice carries a QR-bill, `fullName`, `addr1`, `postcode`, `town`, `country`
     *   when the buyer's address is not one a QR-bill can carry);
     *   409 `products.insufficient_stock` (field `items.N.quantity`, detail naming product and stock).
     */
    create: (input: CreateSale, user: AuthUser) =>
      db.transaction(async (tx) => {
        const buyer = await subscribersService.findVisibleWithCurrency(tx, input.subscriberId);
        if (!buyer) {
          throw createSaleSubscriberUnknownError(`No subscriber has id ${input.subscriberId}.`, [
            { path: 'subscriberId', message: 'This subscriber does not exist.' },
          ]);
        }
        const catalogue = await repository.findProducts(tx, [
          ...new Set(input.items.map((item) => item.productId)),
        ]);
        const missing = input.items
          .map((item, index) => ({ item, index }))
          .filter(({ item }) => !catalogue.has(item.productId));
        if (missing.length > 0) {
          throw createSaleInvalidError(
            'Some lines name a product that does not exist.',
            missing.map(({ index }) => ({
              path: `items.${index}.productId`,
              message: 'This product does not exist.',
            })),
          );
        }
        const currency =
          (await repository.findCurrencyBySymbol(tx, input.swissSale ? 'CHF' : '€')) ??
          (await repository.findCurrencyBySymbol(tx, buyer.symbol));
        if (!currency) throw createSaleInvalidError('No currency fits this sale.');
        if (input.swissSale) {
          // Its invoice ends with a QR-bill: the buyer's address must be one it can carry (decision 031).
          const problems = qrBillBuyerProblems(input, await repository.countryIsoByName(tx, input.country));
          if (problems.length > 0) {
            throw createSaleInvalidError(
              "The invoice of a sale in francs carries a Swiss QR-bill: complete the buyer's address.",
              problems,
            );
          }
        }
        const priced = input.items.map((item, index) => {
          const product = catalogue.get(item.productId);
          if (!product) throw new Error('product checked above');
          return checkLinePrice(item, index, product, input.swissSale);
        });
        const wrongPrices = priced.filter((line) => 'path' in line);
        if (wrongPrices.length > 0) {
          throw createSaleInvalidError('Some lines do not carry the catalogue price.', wrongPrices);
        }
        const lines = input.items.map((item, index) => ({
          ...item,
          ...(priced[index] as { euroUnitPrice: number; swissUnitPrice: number; unitPrice: number }),
        }));
        const totals = computeSaleTotalsInCents({
          lines,
          discountPercentage: input.discountPercentage,
          donation: input.donation,
          deliveryCharge: input.deliveryCharge,
        });
        const ref = await repository.allocateRef(tx);
        const sale = await repository.insertSale(tx, {
          ref,
          subscriberId: buyer.id,
          fullName: input.fullName,
          association: input.association,
          currencyId: currency.id,
          swissSale: input.swissSale,
          discountPercentage: input.discountPercentage.toFixed(6),
          subTotal: centsToNumeric(totals.subTotal),
          discountAmount: centsToNumeric(totals.discount),
          donation: centsToNumeric(totals.donation),
          deliveryCharge: centsToNumeric(totals.deliveryCharge),
          total: centsToNumeric(totals.total),
          includeThanks: input.includeThanks,
          includePaymentTerms: input.includePaymentTerms,
          paymentTermDays: input.paymentTermDays,
          addr1: input.addr1,
          addr2: input.addr2,
          addr3: input.addr3,
          town: input.town,
          postcode: input.postcode,
          country: input.country,
          orderNumber: input.orderNumber,
          deliveryAddress: input.deliveryAddress,
          notes: input.notes,
          addedBy: user.fullName,
          addedOn: clock.now(),
        });
        const lineNames = lines.map((line) => catalogue.get(line.productId)?.name ?? '');
        await repository.insertLines(
          tx,
          lines.map((line, index) => ({
            saleId: sale.id,
            position: index + 1,
            productId: line.productId,
            productName: lineNames[index] ?? '',
            quantity: line.quantity,
            euroUnitPrice: line.euroUnitPrice.toFixed(2),
            swissUnitPrice: line.swissUnitPrice.toFixed(2),
            unitPrice: line.unitPrice.toFixed(2),
            lineTotal: centsToNumeric(totals.lineTotals[index] ?? 0),
          })),
        );
        const short = [];
        for (const { productId, quantity, firstIndex } of quantitiesByProduct(lines)) {
          const moved = await repository.moveStock(tx, {
            productId,
            quantity: -quantity,
            kind: 'sale',
            saleId: sale.id,
            user,
          });
          if (!moved) short.push({ productId, quantity, path: `items.${firstIndex}.quantity` });
        }
        if (short.length > 0) {
          const problems = [];
          for (const { productId, quantity, path } of short) {
            const stock = await repository.findStock(tx, productId);
            problems.push(
              insufficientStock(stock ?? { name: `#${productId}`, currentStock: 0 }, quantity, path),
            );
          }
          throw createInsufficientStockError(
            problems.map((problem) => problem.detail).join(' '),
            problems.flatMap((problem) => problem.errors ?? []),
          );
        }
        const gift = giftPartInCents(
          lines.map((line, index) => ({ ...line, productName: lineNames[index] ?? '' })),
          input.discountPercentage,
          totals.donation,
        );
        if (gift > 0) {
          await donations.addOn(
            tx,
            {
              subscriberId: buyer.id,
              amount: centsToNumeric(gift),
              currencyId: currency.id,
              currencySymbol: currency.symbol,
              donationDate: calendarDay(sale.addedOn, timeZone),
              notes: `Don de la vente n° ${ref}`,
              sale: { id: sale.id, ref },
            },
            user,
          );
        }
        await subscribersService.addHistory(tx, {
          subscriberId: buyer.id,
          userName: user.fullName,
          description: `Sale #${ref} saved: ${lines.length} line(s), total ${formatAmount(totals.total / 100, currency.symbol)}.`,
        });
        return loadSale(tx, sale.id);
      }),

    /**
     * `GET /api/sales/receipt/{saleId}`: the invoice PDF, named `sale-invoice-{ref}.pdf`. The first
     * time, records (committed before the PDF is produced) that the invoice is issued: from then on
     * the sale cannot be deleted, only cancelled by a credit note. Every way of handing the invoice
     * out (download, email) goes through here; the first time also fixes its payment reference and
     * account (`invoicePaymentFor`, docs/decisions/031). Its payment part is checked first: an
     * invoice whose QR-bill cannot be made is not issued (./qr-bill.ts).
     * @throws 404; 409 `sales.qr_bill_impossible` naming the settings or sale fields to complete.
     */
    invoice: async (id: number) => {
      const settings = await settingsService.get();
      const before = await repository.findSale(db, id);
      if (!before) throw notFound(id);
      const payment = invoicePaymentFor(before.sale.ref, before.currencyIso, settings.bankAccounts ?? []);
      if (before.sale.invoiceIssuedAt === null) {
        requirePaymentPart(
          {
            ...before,
            sale: { ...before.sale, paymentReference: payment.reference, paymentIban: payment.iban },
          },
          settings,
        );
      }
      if (!(await creditNotes.markInvoiceIssued(db, id, payment, clock.now()))) throw notFound(id);
      const found = await repository.findSale(db, id);
      if (!found) throw notFound(id);
      return renderInvoice(found, settings);
    },

    /**
     * A buyer's sales with their lines, and the PDF of each invoice already issued (none is issued
     * by this), as `sale-invoice-{ref}.pdf`: the GDPR art. 15 archive (docs/decisions/019).
     */
    salesOf: async (subscriberId: number) => {
      const settings = await settingsService.get();
      const found = await repository.listBySubscriber(db, subscriberId);
      const invoices = [];
      for (const sale of found) {
        if (sale.sale.invoiceIssuedAt) invoices.push(await renderInvoice(sale, settings));
      }
      return { sales: found, invoices };
    },

    /**
     * `DELETE /api/sales/{id}`: puts the items back in stock (one `saleCancelled` movement per
     * product, naming the sale and the user), deletes the donation its gift made (part 2 §2.6) with
     * the donor's history line, and writes the buyer's history. Only a
     * sale whose invoice was never issued: the row lock taken here orders it with the invoice's
     * first download (see `invoice`), so one of the two sees the other; and only while no tax receipt
     * covers its gift (the donation's lock orders it with the receipt's issue).
     * @throws 404; 409 `sales.invoice_issued` (cancel it with a credit note instead); 409
     *   `sales.gift_receipted`, naming the receipt, which must be cancelled first (CGI art. 200).
     */
    remove: (id: number, user: AuthUser) =>
      db.transaction(async (tx) => {
        const locked = await repository.lockSale(tx, id);
        if (!locked) throw notFound(id);
        if (locked.invoiceIssuedAt !== null) {
          throw createSaleInvoiceIssuedError(
            `The invoice n° ${locked.ref} was issued: the sale cannot be deleted, cancel it with a credit note.`,
          );
        }
        const gift = await donations.findForSaleOn(tx, id);
        if (gift && gift.receiptNumber !== null) {
          throw createSaleGiftReceiptedError(
            `The gift of ${formatAmount(Number(gift.amount), gift.currencySymbol)} of the sale #${locked.ref} is on tax receipt n° ${gift.receiptNumber}: cancel that receipt first, then delete the sale.`,
          );
        }
        const sale = await loadSale(tx, id);
        await putSaleItemsBack(tx, repository, { saleId: id, lines: sale.saleDetails, user });
        if (gift) await donations.removeOn(tx, gift, user, `with the sale #${locked.ref}`);
        await repository.deleteSale(tx, id);
        await subscribersService.addHistory(tx, {
          subscriberId: sale.subscriberId,
          userName: user.fullName,
          description: `Sale #${sale.ref} of ${formatAmount(toCents(sale.total) / 100, sale.currencySymbol)} deleted; its items were put back in stock.`,
        });
      }),

    /**
     * `POST /api/sales/{id}/payments`: records a payment of the sale's issued invoice typed by staff
     * (docs/decisions/032), with a line in the buyer's history; see {@link recordPaymentOn}.
     * @returns the sale with its payments. @throws what `recordPaymentOn` throws.
     */
    recordPayment: (id: number, input: RecordPaymentInput, user: AuthUser): Promise<Sale> =>
      db.transaction(async (tx) => {
        await recordPaymentOn(tx, id, { ...input, source: 'manual' }, user);
        return loadSale(tx, id);
      }),

    recordPaymentOn,
    recordPaymentsOn,

    /**
     * `POST /api/sales/{id}/reminders`: emails the buyer a payment reminder of an overdue invoice
     * (docs/decisions/034), from the settings' French template (invoice number, amount still due,
     * due date, reminder number), with the invoice PDF and its payment part attached; in one
     * transaction under the sale's lock, raises `reminderLevel`, sets `lastReminderOn` to today (the
     * organisation's day) and writes the buyer's history.
     * @returns the sale. @throws 404; 409 `sales.not_overdue` (not issued, paid, cancelled or not yet
     *   due); 409 `sales.reminder_too_soon` before the settings' interval since the last reminder
     *   (naming the first day allowed); 409 `sales.no_email` when the buyer has no email address.
     */
    sendReminder: async (id: number, user: AuthUser): Promise<Sale> => {
      const settings = await settingsService.get();
      const today = calendarDay(clock.now(), timeZone);
      const sale = await db.transaction(async (tx) => {
        const locked = await repository.lockSale(tx, id);
        if (!locked) throw notFound(id);
        const status = await salePayments.statusOf(tx, id, timeZone, today);
        if (status !== 'overdue') {
          throw createSaleNotOverdueError(
            `The invoice of the sale #${locked.ref} is ${status === null ? 'not due' : status === 'paid' ? 'paid' : 'not yet due'}: there is nothing to remind.`,
          );
        }
        const interval = settings.reminderIntervalDays ?? REMINDER_INTERVAL_DAYS.default;
        if (locked.lastReminderOn !== null) {
          const next = addCalendarDays(locked.lastReminderOn, interval);
          if (today < next) {
            throw createReminderTooSoonError(
              `The last reminder was sent on ${locked.lastReminderOn}; the next one can be sent from ${next}.`,
            );
          }
        }
        const [buyer] = await queryRows<{
          email: string;
          title: string;
          firstName: string;
          lastName: string;
        }>(
          tx,
          sql`select email, title, first_name as "firstName", last_name as "lastName"
            from subscribers where id = ${locked.subscriberId} and not hidden`,
        );
        if (!buyer || buyer.email.trim() === '') {
          throw createSaleNoEmailError(`The buyer of the sale #${locked.ref} has no email address.`);
        }
        const found = await repository.findSale(tx, id);
        if (!found) throw notFound(id);
        const file = await renderInvoice(found, settings);
        const level = locked.reminderLevel + 1;
        const invoiceDay = calendarDay(locked.addedOn, timeZone);
        const due = (toCents(locked.total) - toCents(locked.paidAmount)) / 100;
        const { subject, text, html } = composeEmail(
          {
            subject: templateOrDefault('reminderEmailSubject', settings.reminderEmailSubject),
            text: templateOrDefault('reminderEmailText', settings.reminderEmailText),
          },
          {
            title: buyer.title,
            firstName: buyer.firstName,
            lastName: buyer.lastName,
            organisationName: settings.organisationName || 'notre association',
            invoiceNumber: String(locked.ref),
            amountDue: formatAmount(due, found.currencySymbol),
            dueDate: frenchDate(addCalendarDays(invoiceDay, locked.paymentTermDays)),
            reminderNumber: String(level),
          },
        );
        await mailRepository.enqueue(tx, {
          subscriberId: locked.subscriberId,
          to: buyer.email.trim(),
          subject,
          text,
          html,
          attachments: [
            {
              filename: file.filename,
              contentType: 'application/pdf',
              contentBase64: file.pdf.toString('base64'),
            },
          ],
        });
        await repository.recordReminder(tx, id, level, today);
        await subscribersService.addHistory(tx, {
          subscriberId: locked.subscriberId,
          userName: user.fullName,
          description: `Payment reminder n° ${level} of the invoice of the sale #${locked.ref} emailed to ${buyer.email.trim()}.`,
        });
        return loadSale(tx, id);
      });
      onMailQueued();
      return sale;
    },
  };
}

export type SalesService = ReturnType<typeof createSalesService>;
