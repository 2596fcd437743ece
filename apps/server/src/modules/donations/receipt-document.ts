import { calendarDay } from '@back-office/contract/calendar';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { amountInFrenchWords } from '../../lib/amount-in-words.ts';
import { drawableLogo } from '../../lib/images/logo-image.ts';
import { formatAmount, toCents } from '../../lib/money.ts';
import type { EffectiveSettings } from '../settings/settings.service.ts';
import type { ReceiptDocumentData } from './receipts.repository.ts';

const FRENCH_DATE = new Intl.DateTimeFormat('fr-FR', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/**
 * `2026-03-14` -> `14 mars 2026`; the first of a month is written `1er`. Takes a calendar day: date an
 * instant with {@link frenchDateOf}, in the organisation's zone.
 */
export function frenchDate(isoDate: string): string {
  return FRENCH_DATE.format(new Date(`${isoDate.slice(0, 10)}T00:00:00Z`)).replace(/^1 /, '1er ');
}

/** The French date of the day `instant` falls on in `timeZone` (docs/decisions/012: never the UTC day). */
export function frenchDateOf(instant: Date, timeZone: string): string {
  return frenchDate(calendarDay(instant, timeZone));
}

// Roboto has no ballot-box glyphs (☐ ☒): brackets read the same on paper.
const box = (checked: boolean) => (checked ? '[X]' : '[  ]');

/** How the gift was paid, from the donor's payment method name (Cerfa: espèces / chèque / virement, prélèvement, carte). */
function paymentMode(method: string | null) {
  const name = (method ?? '').toLowerCase();
  return {
    cash: /esp[eè]ce|cash/.test(name),
    cheque: /ch[eè]que/.test(name),
    transfer: /virement|pr[eé]l[eè]vement|carte|card|transfer|debit/.test(name),
  };
}

/**
 * The pdfmake content of one tax receipt with every mention of Cerfa n° 11580: order number, the
 * beneficiary (name, SIREN/RNA, address, purpose, status), the donor, the amount in figures and in
 * words, the date (single) or the year with each gift (annual), the articles of the tax code, the
 * form, nature and payment mode of the gift, place, date and signatory (docs/decisions/005); a QR
 * code of `verifyUrl(receipt)`, its public check (docs/decisions/023).
 * `pageBreak` starts it on a new page (several receipts in one file).
 */
export function receiptContent(
  data: ReceiptDocumentData,
  settings: EffectiveSettings,
  verifyUrl: (receipt: ReceiptDocumentData['receipt']) => string,
  pageBreak = false,
): Content[] {
  const { receipt, donor, currency } = data;
  const logo = drawableLogo(settings.logo);
  const total = toCents(receipt.total) / 100;
  const isSwiss = currency.symbol.toUpperCase() === 'CHF';
  const mode = paymentMode(donor.paymentMethod);
  const donorName = [donor.title, donor.firstName, donor.lastName.toUpperCase()].filter(Boolean).join(' ');
  const donorAddress = [
    donor.address1,
    donor.address2,
    donor.address3,
    `${donor.postcode} ${donor.town}`.trim(),
    donor.country,
  ]
    .filter((line) => line?.trim())
    .join('\n');
  const issuedOn = frenchDateOf(receipt.issuedAt, settings.timeZone);
  // "Fait à <the organisation's town>": its structured address, else the last line of the free one.
  const place =
    settings.addressTown.trim() ||
    (settings.address
      .split('\n')
      .at(-1)
      ?.replace(/^\d{4,5}\s*/, '') ??
      '');
  const firstDonation = data.donations[0];
  const dateLine =
    receipt.kind === 'single' && firstDonation
      ? `Date du versement : ${frenchDate(firstDonation.donationDate)}`
      : `Dons effectués du 1er janvier au 31 décembre ${receipt.year}`;

  const section = (title: string): Content => ({ text: title, style: 'section', margin: [0, 10, 0, 4] });

  return [
    {
      columns: [
        logo ? { image: logo, fit: [90, 60], width: 100 } : { text: '', width: 0 },
        {
          stack: [
            { text: 'Reçu au titre des dons à certains organismes d’intérêt général', style: 'title' },
            { text: 'Articles 200, 238 bis et 978 du code général des impôts', style: 'subtitle' },
            { text: 'Cerfa n° 11580*05', style: 'small' },
          ],
        },
        { text: `Reçu n° ${receipt.number}`, style: 'number', width: 110, alignment: 'right' },
      ],
      ...(pageBreak ? { pageBreak: 'before' as const } : {}),
    },
    ...(receipt.status === 'cancelled'
      ? [
          {
            text: `ANNULÉ le ${receipt.cancelledAt ? frenchDateOf(receipt.cancelledAt, settings.timeZone) : ''} : ${receipt.cancelReason ?? ''}`,
            style: 'cancelled',
            margin: [0, 6, 0, 0] as [number, number, number, number],
          },
        ]
      : []),
    ...(receipt.replacesNumber === null
      ? []
      : [
          {
            text: `Ce reçu annule et remplace le reçu n° ${receipt.replacesNumber}.`,
            bold: true,
            margin: [0, 6, 0, 0] as [number, number, number, number],
          },
        ]),
    section('Bénéficiaire des versements'),
    {
      text: settings.organisationName || '(nom de l’organisme à renseigner dans les paramètres)',
      bold: true,
    },
    settings.sirenOrRna ? { text: `N° SIREN ou RNA : ${settings.sirenOrRna}` } : { text: '' },
    { text: settings.address },
    settings.organisationPurpose ? { text: `Objet : ${settings.organisationPurpose}` } : { text: '' },
    settings.receiptStatement
      ? { text: settings.receiptStatement, style: 'small', margin: [0, 4, 0, 0] }
      : { text: '' },
    section('Donateur'),
    { text: donorName, bold: true },
    { text: donorAddress },
    section('Versement'),
    {
      text: [
        'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt la somme de : ',
        { text: formatAmount(total, currency.symbol), bold: true },
      ],
    },
    {
      text: `Somme en toutes lettres : ${amountInFrenchWords(total, isSwiss ? 'CHF' : 'EUR')}`,
      margin: [0, 4, 0, 0],
    },
    { text: dateLine, margin: [0, 4, 0, 0] },
    ...(receipt.kind === 'annual'
      ? [
          {
            table: {
              widths: ['*', 'auto'],
              body: [
                [
                  { text: 'Date du don', bold: true },
                  { text: 'Montant', bold: true, alignment: 'right' as const },
                ],
                ...data.donations.map((donation) => [
                  frenchDate(donation.donationDate),
                  {
                    text: formatAmount(Number(donation.amount), currency.symbol),
                    alignment: 'right' as const,
                  },
                ]),
              ],
            },
            layout: 'lightHorizontalLines',
            margin: [0, 6, 0, 0] as [number, number, number, number],
          },
        ]
      : []),
    {
      text: [
        'Le bénéficiaire certifie sur l’honneur que les dons et versements qu’il reçoit ouvrent droit à la réduction d’impôt prévue à l’article : ',
        `${box(true)} 200 du CGI   ${box(false)} 238 bis du CGI   ${box(false)} 978 du CGI`,
      ],
      margin: [0, 8, 0, 0],
    },
    {
      columns: [
        {
          stack: [
            { text: 'Forme du don', bold: true },
            `${box(false)} Acte authentique`,
            `${box(false)} Acte sous seing privé`,
            `${box(true)} Déclaration de don manuel`,
            `${box(false)} Autres`,
          ],
        },
        {
          stack: [
            { text: 'Nature du don', bold: true },
            `${box(true)} Numéraire`,
            `${box(false)} Titres de sociétés cotés`,
            `${box(false)} Autres`,
          ],
        },
        {
          stack: [
            { text: 'Mode de versement', bold: true },
            `${box(mode.cash)} Remise d’espèces`,
            `${box(mode.cheque)} Chèque`,
            `${box(mode.transfer)} Virement, prélèvement, carte bancaire`,
          ],
        },
      ],
      columnGap: 12,
      margin: [0, 10, 0, 0],
      style: 'small',
    },
    {
      columns: [
        {
          // Anyone holding the receipt can check it: the register's public page (docs/decisions/023).
          stack: [
            { qr: verifyUrl(receipt), fit: 72 },
            { text: 'Vérifier ce reçu', style: 'small', margin: [0, 4, 0, 0] },
          ],
          width: 120,
        },
        { text: '' },
        {
          stack: [
            { text: `Fait à ${place || '……………'}, le ${issuedOn}` },
            { text: settings.signatoryName || '', bold: true, margin: [0, 16, 0, 0] },
            { text: settings.signatoryTitle || '' },
          ],
          width: 230,
        },
      ],
      margin: [0, 18, 0, 0],
    },
  ];
}

/** A PDF document of one or more receipts, one per page. */
export function receiptsDocument(
  items: ReceiptDocumentData[],
  settings: EffectiveSettings,
  verifyUrl: (receipt: ReceiptDocumentData['receipt']) => string,
): TDocumentDefinitions {
  const first = items[0];
  return {
    info: {
      title: first
        ? `Reçu fiscal n° ${items.map((item) => item.receipt.number).join(', ')}`
        : 'Reçus fiscaux',
      author: settings.organisationName,
    },
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 40],
    // A file of cancelled receipts only (the register's copy of one) says so across each page.
    ...(items.length > 0 && items.every((item) => item.receipt.status === 'cancelled')
      ? { watermark: { text: 'ANNULÉ', color: '#b00020', opacity: 0.15, bold: true } }
      : {}),
    content: items.flatMap((item, index) => receiptContent(item, settings, verifyUrl, index > 0)),
    defaultStyle: { fontSize: 10, lineHeight: 1.15 },
    styles: {
      title: { fontSize: 14, bold: true },
      subtitle: { fontSize: 10, color: '#444444' },
      number: { fontSize: 12, bold: true },
      section: { fontSize: 11, bold: true, color: '#1c4e80' },
      small: { fontSize: 8.5 },
      cancelled: { fontSize: 12, bold: true, color: '#b00020' },
    },
  };
}
