import { addCalendarDays, calendarDay } from '@back-office/contract/calendar';
import type { Settings } from '@back-office/contract/settings';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces';
import { formatIBAN, formatReference } from 'swissqrbill/utils';
import { drawableLogo } from '../../lib/images/logo-image.ts';
import { formatAmount } from '../../lib/money.ts';
import { renderPdf } from '../../lib/pdf/pdf-renderer.ts';
import { frenchDate } from '../donations/receipt-document.ts';
import type { EffectiveSettings } from '../settings/settings.service.ts';
import { type PaymentPart, paymentPartContent, paymentPartDrawing } from './qr-bill.ts';
import type { SaleLineRow, SaleRow } from './sales.repository.ts';

/** Thanks printed when the sale asks for them (part 2 §2.6 includeThanks). */
export const THANKS_TEXT = 'Merci pour votre commande et pour votre soutien.';

/** The organisation's block at the top left of its sales documents (invoice, credit note): logo, name, address, SIREN / RNA, email. */
export function organisationHeader(settings: Settings): Content {
  const logo = drawableLogo(settings.logo);
  return {
    stack: [
      ...(logo
        ? [
            {
              image: logo,
              fit: [110, 60] as [number, number],
              margin: [0, 0, 0, 6] as [number, number, number, number],
            },
          ]
        : []),
      { text: settings.organisationName, bold: true, fontSize: 12 },
      { text: settings.address },
      ...(settings.sirenOrRna ? [{ text: `SIREN / RNA : ${settings.sirenOrRna}` }] : []),
      ...(settings.emailSenderAddress ? [{ text: settings.emailSenderAddress }] : []),
    ],
  };
}

/** The buyer's lines as the sale recorded them (name, association, address, country). */
export function buyerLines(sale: SaleRow): string[] {
  return [
    sale.fullName,
    sale.association,
    sale.addr1,
    sale.addr2,
    sale.addr3,
    `${sale.postcode} ${sale.town}`.trim(),
    sale.country,
  ].filter((line) => line.trim());
}

/**
 * The invoice of a sale (docs/decisions/005): Facture and its number, date, the organisation and the buyer,
 * delivery address and order number when given, each line, sub-total, discount, delivery charge,
 * donation, total in the sale's currency, payment terms with due date, thanks, notes, legal footer;
 * then its `paymentPart` (./qr-bill.ts, docs/decisions/031): the page of the Swiss QR-bill, last and
 * without the footer (the payment part, drawn by {@link renderInvoicePdf}, takes its bottom 105 mm), or
 * the EPC QR code after the notes.
 */
export function invoiceDocument(
  {
    sale,
    lines,
    currencySymbol,
    paymentPart = { kind: 'none' },
  }: { sale: SaleRow; lines: SaleLineRow[]; currencySymbol: string; paymentPart?: PaymentPart },
  settings: EffectiveSettings,
): TDocumentDefinitions {
  const money = (value: string | number) => formatAmount(Number(value), currencySymbol);
  const issued = calendarDay(sale.addedOn, settings.timeZone);
  const buyer = buyerLines(sale);
  const right = (text: string, bold = false): TableCell => ({ text, alignment: 'right', bold });
  const discountPercent = Number(sale.discountPercentage);
  const totals: TableCell[][] = [
    [{ text: 'Sous-total', colSpan: 3 }, {}, {}, right(money(sale.subTotal))],
    ...(discountPercent > 0
      ? [
          [
            { text: `Remise ${discountPercent.toLocaleString('fr-FR')} %`, colSpan: 3 },
            {},
            {},
            right(`− ${money(sale.discountAmount)}`),
          ],
        ]
      : []),
    ...(Number(sale.deliveryCharge) > 0
      ? [[{ text: 'Frais de livraison', colSpan: 3 }, {}, {}, right(money(sale.deliveryCharge))]]
      : []),
    ...(Number(sale.donation) > 0
      ? [[{ text: 'Don', colSpan: 3 }, {}, {}, right(money(sale.donation))]]
      : []),
    [{ text: `TOTAL (${currencySymbol})`, colSpan: 3, bold: true }, {}, {}, right(money(sale.total), true)],
  ];

  return {
    info: { title: `Facture ${sale.ref}`, author: settings.organisationName },
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 60],
    footer: settings.invoiceFooter
      ? (currentPage: number, pageCount: number) =>
          paymentPart.kind === 'qr-bill' && currentPage === pageCount
            ? null
            : {
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
              { text: 'Facture', fontSize: 22, bold: true, alignment: 'right' as const },
              { text: `N° ${sale.ref}`, alignment: 'right' as const, fontSize: 12 },
              { text: `Date : ${frenchDate(issued)}`, alignment: 'right' as const },
              ...(sale.orderNumber
                ? [{ text: `Commande n° ${sale.orderNumber}`, alignment: 'right' as const }]
                : []),
            ],
          },
        ],
      },
      {
        columns: [
          { stack: [{ text: 'Facturé à', bold: true, color: '#1c4e80' }, { text: buyer.join('\n') }] },
          sale.deliveryAddress
            ? { stack: [{ text: 'Livraison', bold: true, color: '#1c4e80' }, { text: sale.deliveryAddress }] }
            : { text: '' },
        ],
        margin: [0, 24, 0, 16],
      },
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
            ...totals,
          ],
        },
        layout: 'lightHorizontalLines',
      },
      ...(sale.includePaymentTerms
        ? [
            {
              text: `Conditions de paiement : ${sale.paymentTermDays} jours, soit au plus tard le ${frenchDate(
                addCalendarDays(issued, sale.paymentTermDays),
              )}.`,
              margin: [0, 16, 0, 0] as [number, number, number, number],
            },
            ...(settings.paymentTermsText ? [{ text: settings.paymentTermsText, fontSize: 9 }] : []),
          ]
        : []),
      ...(sale.paymentReference
        ? [
            {
              text: [
                'Référence de paiement, à indiquer avec votre règlement : ',
                { text: formatReference(sale.paymentReference), bold: true },
              ],
              margin: [0, 12, 0, 0] as [number, number, number, number],
            },
            ...(sale.paymentIban ? [{ text: `Compte : ${formatIBAN(sale.paymentIban)}` }] : []),
          ]
        : []),
      ...(sale.includeThanks
        ? [{ text: THANKS_TEXT, italics: true, margin: [0, 16, 0, 0] as [number, number, number, number] }]
        : []),
      ...(sale.notes
        ? [{ text: sale.notes, margin: [0, 12, 0, 0] as [number, number, number, number] }]
        : []),
      ...paymentPartContent(paymentPart, sale.ref),
    ],
    defaultStyle: { fontSize: 10, lineHeight: 1.15 },
  };
}

/**
 * The invoice PDF of a sale: {@link invoiceDocument}, with its QR-bill's payment part drawn on the last
 * page (./qr-bill.ts).
 * @throws swissqrbill's `ValidationError` when the QR-bill's data breaks the SIX guidelines.
 */
export function renderInvoicePdf(
  input: Parameters<typeof invoiceDocument>[0],
  settings: EffectiveSettings,
): Promise<Buffer> {
  const drawOnLastPage = input.paymentPart ? paymentPartDrawing(input.paymentPart) : undefined;
  return renderPdf(invoiceDocument(input, settings), { drawOnLastPage });
}
