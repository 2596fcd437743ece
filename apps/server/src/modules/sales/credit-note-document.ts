import type { TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatAmount } from '../../lib/money.ts';
import { frenchDateOf } from '../donations/receipt-document.ts';
import type { EffectiveSettings } from '../settings/settings.service.ts';
import type { CreditNoteRow } from './credit-notes.repository.ts';
import { buyerLines, organisationHeader } from './invoice-document.ts';
import type { SaleLineRow, SaleRow } from './sales.repository.ts';

/** The sentence that ties the credit note to the invoice it cancels. */
export const cancelsSentence = (creditNote: Pick<CreditNoteRow, 'number' | 'saleRef'>) =>
  `Avoir n° ${creditNote.number} annule la facture n° ${creditNote.saleRef}.`;

/**
 * The credit note (avoir) of a cancelled sale, in French, from its stored facts only (the same PDF
 * every time): the organisation as on the invoice, Avoir and its number, its date, the invoice it
 * cancels and that invoice's date, the buyer, the reason, the invoice's lines and the credited
 * amount (the sale's total in its currency).
 */
export function creditNoteDocument(
  { creditNote, sale, lines }: { creditNote: CreditNoteRow; sale: SaleRow; lines: SaleLineRow[] },
  settings: EffectiveSettings,
): TDocumentDefinitions {
  const money = (value: string | number) => formatAmount(Number(value), creditNote.currencySymbol);
  const right = (text: string, bold = false): TableCell => ({ text, alignment: 'right', bold });
  return {
    info: { title: `Avoir ${creditNote.number}`, author: settings.organisationName },
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 60],
    footer: settings.invoiceFooter
      ? {
          text: settings.invoiceFooter,
          alignment: 'center',
          fontSize: 8,
          margin: [40, 10, 40, 0],
          color: '#555555',
        }
      : undefined,
    content: [
      {
        columns: [
          organisationHeader(settings),
          {
            stack: [
              { text: 'Avoir', fontSize: 22, bold: true, alignment: 'right' as const },
              { text: `N° ${creditNote.number}`, alignment: 'right' as const, fontSize: 12 },
              {
                text: `Date : ${frenchDateOf(creditNote.issuedAt, settings.timeZone)}`,
                alignment: 'right' as const,
              },
              {
                text: `Facture n° ${sale.ref} du ${frenchDateOf(sale.addedOn, settings.timeZone)}`,
                alignment: 'right' as const,
              },
            ],
          },
        ],
      },
      {
        stack: [{ text: 'Client', bold: true, color: '#1c4e80' }, { text: buyerLines(sale).join('\n') }],
        margin: [0, 24, 0, 16],
      },
      { text: cancelsSentence(creditNote), bold: true, fontSize: 12 },
      { text: `Motif : ${creditNote.reason}`, margin: [0, 6, 0, 16] },
      {
        table: {
          headerRows: 1,
          widths: ['*', 50, 80, 90],
          body: [
            [
              { text: 'Article', bold: true },
              right('Qté', true),
              right('Prix unitaire', true),
              right('Total', true),
            ],
            ...lines.map((line) => [
              { text: line.productName },
              right(String(line.quantity)),
              right(money(line.unitPrice)),
              right(money(line.lineTotal)),
            ]),
            [
              { text: `MONTANT DE L'AVOIR (${creditNote.currencySymbol})`, colSpan: 3, bold: true },
              {},
              {},
              right(money(creditNote.amount), true),
            ],
          ],
        },
        layout: 'lightHorizontalLines',
      },
      {
        text: `Le montant de ${money(creditNote.amount)} de la facture n° ${sale.ref} est annulé.`,
        margin: [0, 16, 0, 0],
      },
    ],
    defaultStyle: { fontSize: 10, lineHeight: 1.15 },
  };
}
