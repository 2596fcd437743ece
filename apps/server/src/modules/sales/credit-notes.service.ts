import type { CreditNote } from '@back-office/contract/sales';
import type { Database } from '../../db/client.ts';
import { formatAmount } from '../../lib/money.ts';
import { renderPdf } from '../../lib/pdf/pdf-renderer.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { DonationWrites } from '../donations/donations.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import { cancelsSentence, creditNoteDocument } from './credit-note-document.ts';
import type { CreditNotesRepository } from './credit-notes.repository.ts';
import { putSaleItemsBack } from './sale-stock.ts';
import {
  createCreditNoteNotFoundError,
  createSaleAlreadyCancelledError,
  createSaleInvoiceNotIssuedError,
  createSaleNotFoundError,
} from './sales.errors.ts';
import type { SalesRepository } from './sales.repository.ts';

/**
 * Credit notes (avoirs): the only way to undo a sale whose invoice was issued. A sale's invoice
 * keeps its number; the credit note gets its own gapless number and cancels it. A credit note is
 * always whole: it refunds the sale's total, so its gift (the donation the sale made, part 2 §2.6)
 * too; there are no partial credit notes.
 */
export function createCreditNotesService({
  db,
  salesRepository,
  repository,
  subscribersService,
  settingsService,
  donations,
}: {
  db: Database;
  salesRepository: SalesRepository;
  repository: CreditNotesRepository;
  subscribersService: SubscribersService;
  settingsService: SettingsService;
  /** Where the donation a cancelled sale's gift made is removed. */
  donations: DonationWrites;
}) {
  const notFound = (id: number) => createSaleNotFoundError(`No sale has id ${id}.`);

  return {
    /**
     * `POST /api/sales/{id}/cancel`: in one transaction, locks the sale, allocates the next credit
     * note number, stores the credit note (reason, the sale's total in its currency, when, who),
     * puts every line's items back in stock and writes the buyer's history. The credit note refunds
     * the whole sale, gift included, so the donation the sale's gift made (part 2 §2.6) is deleted,
     * with the donor's history line; when a tax receipt covers it, it is kept, and the donor's history
     * says that the receipt covers a refunded gift and should be cancelled (receipts are never
     * cancelled for the user, CGI art. 200): once it is, the donation can be deleted on its own.
     * @returns the credit note: number, sale id, amount in the sale's currency units, ISO issue date.
     * @throws 404 `sales.not_found`; 409 `sales.already_cancelled`; 409 `sales.invoice_not_issued`
     *   (no invoice was issued: delete the sale instead).
     */
    cancel: (id: number, reason: string, user: AuthUser): Promise<CreditNote> =>
      db.transaction(async (tx) => {
        const locked = await salesRepository.lockSale(tx, id);
        if (!locked) throw notFound(id);
        const existing = await repository.findBySale(tx, id);
        if (existing) {
          throw createSaleAlreadyCancelledError(
            `The sale #${locked.ref} is already cancelled by the credit note n° ${existing.number}.`,
          );
        }
        if (locked.invoiceIssuedAt === null) {
          throw createSaleInvoiceNotIssuedError(
            `No invoice was issued for the sale #${locked.ref}: delete it instead.`,
          );
        }
        const found = await salesRepository.findSale(tx, id);
        if (!found) throw notFound(id);
        const number = await repository.allocateNumber(tx);
        const creditNote = await repository.insert(tx, {
          number,
          saleId: id,
          saleRef: locked.ref,
          reason,
          amount: locked.total,
          currencySymbol: found.currencySymbol,
          currencyName: found.currencyName,
          issuedBy: user.fullName,
          issuedByUserId: user.id,
        });
        await putSaleItemsBack(tx, salesRepository, { saleId: id, lines: found.lines, user });
        const gift = await donations.findForSaleOn(tx, id);
        if (gift && gift.receiptNumber === null) {
          await donations.removeOn(
            tx,
            gift,
            user,
            `as refunded by the credit note n° ${creditNote.number} of the sale #${locked.ref}`,
          );
        } else if (gift) {
          await subscribersService.addHistory(tx, {
            subscriberId: gift.subscriberId,
            userName: user.fullName,
            description: `Tax receipt n° ${gift.receiptNumber} covers the gift of ${formatAmount(Number(gift.amount), gift.currencySymbol)} dated ${gift.donationDate} of the sale #${locked.ref}, refunded by the credit note n° ${creditNote.number}: the receipt should be cancelled.`,
          });
        }
        await subscribersService.addHistory(tx, {
          subscriberId: locked.subscriberId,
          userName: user.fullName,
          description: `Sale #${locked.ref} of ${formatAmount(Number(locked.total), found.currencySymbol)} cancelled: ${cancelsSentence(creditNote)} Reason: ${reason}. Its items were put back in stock.`,
        });
        return {
          creditNoteNumber: creditNote.number,
          saleId: id,
          amount: Number(creditNote.amount),
          issuedAt: creditNote.issuedAt.toISOString(),
        };
      }),

    /**
     * `GET /api/sales/{id}/credit-note`: the credit note PDF, named `credit-note-{number}.pdf`, made
     * from the stored credit note and sale. @throws 404 `sales.not_found`, or
     * `sales.credit_note_not_found` when the sale is not cancelled.
     */
    document: async (id: number) => {
      const found = await salesRepository.findSale(db, id);
      if (!found) throw notFound(id);
      const creditNote = await repository.findBySale(db, id);
      if (!creditNote) throw createCreditNoteNotFoundError(`The sale #${found.sale.ref} is not cancelled.`);
      const settings = await settingsService.get();
      const pdf = await renderPdf(
        creditNoteDocument({ creditNote, sale: found.sale, lines: found.lines }, settings),
      );
      return { filename: `credit-note-${creditNote.number}.pdf`, pdf };
    },
  };
}

export type CreditNotesService = ReturnType<typeof createCreditNotesService>;
