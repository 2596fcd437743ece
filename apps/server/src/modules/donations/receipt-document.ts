import { calendarDay } from '@back-office/contract/calendar';
import { ORGANISATION_TYPES } from '@back-office/contract/settings';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { amountInFrenchWords } from '../../lib/amount-in-words.ts';
import { drawableLogo } from '../../lib/images/logo-image.ts';
import { formatAmount, toCents } from '../../lib/money.ts';
import { qrCodeImage } from '../../lib/pdf/qr-code-image.ts';
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

type Margin = [number, number, number, number];

/** An amount in the receipt's currency or in a gift's own (ISO 4217 code), French-formatted. */
const money = (units: number, symbolOrCode: string) =>
  formatAmount(units, symbolOrCode === 'EUR' ? '€' : symbolOrCode);

/** A rate as printed: French decimals, as many as stored (up to 6), "1,0850". */
const frenchRate = (rate: string) =>
  new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 4, maximumFractionDigits: 6 }).format(Number(rate));

/**
 * The organisation's postal address as printed: the structured address of the settings when its town
 * is given (street and number, postcode and town, the country's code), else the free-text address.
 */
export function organisationAddress(settings: EffectiveSettings): string {
  if (!settings.addressTown.trim()) return settings.address;
  const street = [settings.addressStreet, settings.addressBuildingNumber]
    .filter((part) => part.trim())
    .join(' ');
  const town = [settings.addressPostcode, settings.addressTown].filter((part) => part.trim()).join(' ');
  const country = settings.addressCountry && settings.addressCountry !== 'FR' ? settings.addressCountry : '';
  return [street, country ? `${country}-${town}` : town].filter(Boolean).join('\n');
}

/** Where the organisation signs: its structured address's town, else the last line of the free one. */
function placeOfIssue(settings: EffectiveSettings): string {
  return (
    settings.addressTown.trim() ||
    (settings.address
      .split('\n')
      .at(-1)
      ?.replace(/^\d{4,5}\s*/, '') ??
      '')
  );
}

/** The donor as printed: title, first name, LAST NAME, then the postal address lines. */
function donorBlock(donor: ReceiptDocumentData['donor']): Content[] {
  const name = [donor.title, donor.firstName, donor.lastName.toUpperCase()].filter(Boolean).join(' ');
  const address = [
    donor.address1,
    donor.address2,
    donor.address3,
    `${donor.postcode} ${donor.town}`.trim(),
    donor.country,
  ]
    .filter((line) => line?.trim())
    .join('\n');
  return [{ text: name, bold: true }, { text: address }];
}

/**
 * The gifts a receipt covers, one row each: the date, and the amount in the receipt's currency; a
 * gift made in another currency also shows its own amount and the rate it was converted at, with the
 * rate's day (docs/decisions/024).
 */
function giftsTable(data: ReceiptDocumentData): Content {
  const converted = data.donations.some((gift) => gift.original);
  const symbol = data.currency.symbol;
  const header = [
    { text: 'Date du don', bold: true },
    ...(converted
      ? [
          { text: 'Montant versé', bold: true, alignment: 'right' as const },
          { text: 'Taux de change (BCE)', bold: true },
        ]
      : []),
    { text: `Montant (${symbol})`, bold: true, alignment: 'right' as const },
  ];
  const rows = data.donations.map((gift) => [
    frenchDate(gift.date),
    ...(converted
      ? gift.original
        ? [
            {
              text: money(Number(gift.original.amount), gift.original.currency),
              alignment: 'right' as const,
            },
            `1 ${symbol} = ${frenchRate(gift.original.rate)} ${gift.original.currency}, taux du ${frenchDate(gift.original.rateDate)}`,
          ]
        : [{ text: money(Number(gift.amount), symbol), alignment: 'right' as const }, '']
      : []),
    { text: money(Number(gift.amount), symbol), alignment: 'right' as const },
  ]);
  return {
    table: {
      headerRows: 1,
      widths: converted ? ['auto', 'auto', '*', 'auto'] : ['*', 'auto'],
      body: [header, ...rows],
    },
    layout: 'lightHorizontalLines',
    margin: [0, 6, 0, 0] as Margin,
  };
}

/** The receipt's number, title lines and the logo, then its cancellation or what it replaces. */
function heading(
  data: ReceiptDocumentData,
  settings: EffectiveSettings,
  titles: Content[],
  pageBreak: boolean,
): Content[] {
  const { receipt } = data;
  const logo = drawableLogo(settings.logo);
  return [
    {
      columns: [
        logo ? { image: logo, fit: [90, 60], width: 100 } : { text: '', width: 0 },
        { stack: titles },
        {
          text: `${receipt.document === 'cerfa' ? 'Reçu' : 'Attestation'} n° ${receipt.number}`,
          style: 'number',
          width: 130,
          alignment: 'right',
        },
      ],
      ...(pageBreak ? { pageBreak: 'before' as const } : {}),
    },
    ...(receipt.status === 'cancelled'
      ? [
          {
            text: `ANNULÉ le ${receipt.cancelledAt ? frenchDateOf(receipt.cancelledAt, settings.timeZone) : ''} : ${receipt.cancelReason ?? ''}`,
            style: 'cancelled',
            margin: [0, 6, 0, 0] as Margin,
          },
        ]
      : []),
    ...(receipt.replacesNumber === null
      ? []
      : [
          {
            text:
              receipt.document === 'cerfa'
                ? `Ce reçu annule et remplace le reçu n° ${receipt.replacesNumber}.`
                : `Cette attestation annule et remplace le document n° ${receipt.replacesNumber}.`,
            bold: true,
            margin: [0, 6, 0, 0] as Margin,
          },
        ]),
  ];
}

/**
 * The foot of every receipt: the QR code of its public check (docs/decisions/023), and "Fait à <the
 * organisation's town>, le <date of issue>" with the signatory's name, function and signature image.
 */
function signatureBlock(data: ReceiptDocumentData, settings: EffectiveSettings, verifyUrl: string): Content {
  const place = placeOfIssue(settings);
  const signature = drawableLogo(settings.signatureImage);
  return {
    columns: [
      {
        stack: [
          qrCodeImage(verifyUrl, { size: 72 }),
          { text: 'Vérifier ce document', style: 'small', margin: [0, 4, 0, 0] },
        ],
        width: 120,
      },
      { text: '' },
      {
        stack: [
          {
            text: `Fait à ${place || '……………'}, le ${frenchDateOf(data.receipt.issuedAt, settings.timeZone)}`,
          },
          signature
            ? { image: signature, fit: [150, 50], margin: [0, 6, 0, 0] as Margin }
            : { text: ' ', margin: [0, 16, 0, 0] as Margin },
          { text: settings.signatoryName || '', bold: true },
          { text: settings.signatoryTitle || '' },
        ],
        width: 230,
      },
    ],
    margin: [0, 18, 0, 0],
  };
}

const section = (title: string): Content => ({ text: title, style: 'section', margin: [0, 10, 0, 4] });

/**
 * The pdfmake content of a French tax receipt with every mention of Cerfa n° 11580*05 and its notice
 * (CGI art. 200, 238 bis; BOI-IR-RICI-250-30): order number; the beneficiary (name, address, SIREN/RNA,
 * object, the box of its type of organisation); the donor; the amount in euros in figures and in
 * words; the date of the gift (single) or the year with each gift (annual), a gift in another currency
 * with its own amount and the rate used (docs/decisions/024); the articles of the tax code; the form,
 * nature and payment mode; "Fait à <town>", the date of issue, the signatory's name, function and
 * signature (docs/decisions/005).
 */
function cerfaContent(
  data: ReceiptDocumentData,
  settings: EffectiveSettings,
  verifyUrl: string,
  pageBreak: boolean,
): Content[] {
  const { receipt, donor } = data;
  const total = toCents(receipt.total) / 100;
  const mode = paymentMode(donor.paymentMethod);
  const firstDonation = data.donations[0];
  const single = receipt.kind === 'single' && firstDonation;
  const typeLabel = ORGANISATION_TYPES[settings.organisationType] ?? ORGANISATION_TYPES['general-interest'];
  const typeDetail = settings.organisationTypeDetail.trim();
  return [
    ...heading(
      data,
      settings,
      [
        { text: 'Reçu au titre des dons à certains organismes d’intérêt général', style: 'title' },
        { text: 'Articles 200, 238 bis et 978 du code général des impôts', style: 'subtitle' },
        { text: 'Cerfa n° 11580*05', style: 'small' },
      ],
      pageBreak,
    ),
    section('Bénéficiaire des versements'),
    {
      text: settings.organisationName || '(nom de l’organisme à renseigner dans les paramètres)',
      bold: true,
    },
    settings.sirenOrRna ? { text: `N° SIREN ou RNA : ${settings.sirenOrRna}` } : { text: '' },
    { text: organisationAddress(settings) },
    settings.organisationPurpose ? { text: `Objet : ${settings.organisationPurpose}` } : { text: '' },
    { text: `${box(true)} ${typeLabel}${typeDetail ? ` : ${typeDetail}` : ''}`, margin: [0, 4, 0, 0] },
    settings.receiptStatement
      ? { text: settings.receiptStatement, style: 'small', margin: [0, 4, 0, 0] }
      : { text: '' },
    section('Donateur'),
    ...donorBlock(donor),
    section('Versement'),
    {
      text: [
        'Le bénéficiaire reconnaît avoir reçu au titre des dons et versements ouvrant droit à réduction d’impôt la somme de : ',
        { text: money(total, data.currency.symbol), bold: true },
      ],
    },
    { text: `Somme en toutes lettres : ${amountInFrenchWords(total, 'EUR')}`, margin: [0, 4, 0, 0] },
    {
      text: single
        ? `Date du versement : ${frenchDate(firstDonation.date)}`
        : `Dons effectués du 1er janvier au 31 décembre ${receipt.year}`,
      margin: [0, 4, 0, 0],
    },
    ...(single && !firstDonation.original ? [] : [giftsTable(data)]),
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
    signatureBlock(data, settings, verifyUrl),
  ];
}

/**
 * The pdfmake content of a Swiss "attestation de dons", as the cantonal tax administrations expect it
 * for the deduction of gifts (LIFD art. 33a for individuals, art. 59 al. 1 let. c for companies, and
 * the cantonal laws that follow them): the organisation (name, address, number), the donor, each gift
 * with its date and the total of the year (or of the one gift) in francs, in figures and in words, a
 * gift in another currency with its own amount and the rate used; the statement that the gifts were
 * made without counterpart; place, date and signature.
 */
function attestationContent(
  data: ReceiptDocumentData,
  settings: EffectiveSettings,
  verifyUrl: string,
  pageBreak: boolean,
): Content[] {
  const { receipt, donor } = data;
  const total = toCents(receipt.total) / 100;
  const single = receipt.kind === 'single';
  return [
    ...heading(
      data,
      settings,
      [
        { text: single ? 'Attestation de don' : `Attestation de dons ${receipt.year}`, style: 'title' },
        {
          text: 'Pour la déduction des dons (art. 33a et 59 al. 1 let. c LIFD et droit cantonal)',
          style: 'subtitle',
        },
      ],
      pageBreak,
    ),
    section('Organisation bénéficiaire'),
    {
      text: settings.organisationName || '(nom de l’organisme à renseigner dans les paramètres)',
      bold: true,
    },
    { text: organisationAddress(settings) },
    settings.sirenOrRna ? { text: `N° d’identification : ${settings.sirenOrRna}` } : { text: '' },
    settings.organisationPurpose ? { text: `But : ${settings.organisationPurpose}` } : { text: '' },
    section('Donatrice ou donateur'),
    ...donorBlock(donor),
    section(single ? 'Don' : `Dons de l’année ${receipt.year}`),
    {
      text: [
        single
          ? 'Nous attestons avoir reçu de la personne ci-dessus le don de : '
          : `Nous attestons avoir reçu de la personne ci-dessus, du 1er janvier au 31 décembre ${receipt.year}, des dons d’un total de : `,
        { text: money(total, data.currency.symbol), bold: true },
      ],
    },
    { text: `En toutes lettres : ${amountInFrenchWords(total, 'CHF')}`, margin: [0, 4, 0, 0] },
    giftsTable(data),
    {
      text: 'Ces dons ont été versés librement et sans contrepartie : la donatrice ou le donateur n’a reçu aucune prestation en retour.',
      margin: [0, 10, 0, 0],
    },
    settings.receiptStatement
      ? { text: settings.receiptStatement, style: 'small', margin: [0, 4, 0, 0] }
      : { text: '' },
    signatureBlock(data, settings, verifyUrl),
  ];
}

/**
 * The pdfmake content of one receipt, the document it was issued as (docs/decisions/024): a French
 * Cerfa 11580*05 or a Swiss attestation de dons, each with a QR code of `verifyUrl(receipt)`, its
 * public check (docs/decisions/023). `pageBreak` starts it on a new page (several receipts in one file).
 */
export function receiptContent(
  data: ReceiptDocumentData,
  settings: EffectiveSettings,
  verifyUrl: (receipt: ReceiptDocumentData['receipt']) => string,
  pageBreak = false,
): Content[] {
  const url = verifyUrl(data.receipt);
  return data.receipt.document === 'attestation'
    ? attestationContent(data, settings, url, pageBreak)
    : cerfaContent(data, settings, url, pageBreak);
}

/** What the file's receipts are called in its title, as on their pages: Swiss attestations are not "reçus fiscaux". */
function documentName(items: ReceiptDocumentData[]): string {
  const attestations = items.filter((item) => item.receipt.document === 'attestation').length;
  if (attestations === 0) return 'Reçu fiscal';
  return attestations === items.length ? 'Attestation' : 'Reçu fiscal ou attestation';
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
        ? `${documentName(items)} n° ${items.map((item) => item.receipt.number).join(', ')}`
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
