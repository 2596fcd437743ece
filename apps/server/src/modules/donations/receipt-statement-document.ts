import type { ReceiptArticle, ReceiptStatement } from '@back-office/contract/receipts';
import type { Content, TDocumentDefinitions } from 'pdfmake/interfaces';
import { drawableLogo } from '../../lib/images/logo-image.ts';
import { formatAmount } from '../../lib/money.ts';
import type { EffectiveSettings } from '../settings/settings.service.ts';
import { frenchDateOf } from './receipt-document.ts';

const FRENCH_COUNT = new Intl.NumberFormat('fr-FR');

/** A count written the French way, `1 234`. */
const count = (value: number) => FRENCH_COUNT.format(value);

/** An amount in euros written the French way, `1 234,50 €`. */
const euros = (amount: number) => formatAmount(amount, '€');

/** How each article of the tax code reads in the statement's table. */
const ARTICLE_LABELS: Record<ReceiptArticle, string> = {
  '200': 'Article 200 (dons des particuliers)',
  '238 bis': 'Article 238 bis (dons des entreprises)',
  '978': 'Article 978 (impôt sur la fortune immobilière)',
};

/** Where the statement is made: the town of the structured address, else the last line of the free one. */
function placeOf(settings: EffectiveSettings): string {
  return (
    settings.addressTown.trim() ||
    (settings.address
      .split('\n')
      .at(-1)
      ?.replace(/^\d{4,5}\s*/, '')
      .trim() ??
      '')
  );
}

/**
 * The pdfmake document of the organisation's annual statement of the tax receipts it issued
 * (CGI art. 222 bis), one A4 page: the organisation (name, SIREN or RNA, address), the number of
 * receipts issued in the year and the total of the gifts they state, in euros ("1 234,50 €"), the
 * same per article of the tax code, and "Fait à <town>, le <date>" dated `issuedAt` in the
 * organisation's time zone, with the signatory.
 */
export function receiptStatementDocument(
  statement: ReceiptStatement,
  settings: EffectiveSettings,
  issuedAt: Date,
): TDocumentDefinitions {
  const title = `État annuel des reçus fiscaux délivrés — ${statement.year}`;
  const logo = drawableLogo(settings.logo);
  const right = (text: string, bold = false) => ({ text, alignment: 'right' as const, bold });
  const section = (text: string): Content => ({ text, style: 'section', margin: [0, 14, 0, 6] });
  const place = placeOf(settings);

  return {
    info: { title, author: settings.organisationName },
    pageSize: 'A4',
    pageMargins: [50, 50, 50, 50],
    content: [
      {
        columns: [
          logo ? { image: logo, fit: [90, 60], width: 100 } : { text: '', width: 0 },
          {
            stack: [
              { text: title, style: 'title' },
              { text: 'Article 222 bis du code général des impôts', style: 'subtitle' },
            ],
          },
        ],
        columnGap: 12,
      },
      section('Organisme'),
      {
        text: settings.organisationName || '(nom de l’organisme à renseigner dans les paramètres)',
        bold: true,
      },
      ...(settings.sirenOrRna ? [{ text: `N° SIREN ou RNA : ${settings.sirenOrRna}` }] : []),
      ...(settings.address.trim() ? [{ text: settings.address }] : []),
      section(`Reçus délivrés du 1er janvier au 31 décembre ${statement.year}`),
      {
        table: {
          widths: ['*', 'auto'],
          body: [
            ['Nombre de reçus délivrés', right(count(statement.receiptCount), true)],
            ['Montant total des dons mentionnés sur ces reçus', right(euros(statement.totalAmount), true)],
          ],
        },
        layout: {
          hLineWidth: () => 0.5,
          vLineWidth: () => 0,
          hLineColor: () => '#aaaaaa',
          paddingLeft: () => 0,
          paddingRight: () => 0,
        },
      },
      section('Par article du code général des impôts'),
      {
        table: {
          headerRows: 1,
          widths: ['*', 'auto', 'auto'],
          body: [
            [
              { text: 'Article', bold: true },
              right('Nombre de reçus', true),
              right('Montant des dons', true),
            ],
            ...statement.byType.map((row) => [
              ARTICLE_LABELS[row.type],
              right(count(row.count)),
              right(euros(row.amount)),
            ]),
            [
              { text: 'Total', bold: true },
              right(count(statement.receiptCount), true),
              right(euros(statement.totalAmount), true),
            ],
          ],
        },
        layout: 'lightHorizontalLines',
      },
      {
        text:
          'Reçus Cerfa n° 11580 délivrés dans l’année et non annulés (un reçu remplaçant un reçu annulé est compté), ' +
          'datés de leur jour de délivrance ; montants en euros, un reçu établi dans une autre devise étant ' +
          'converti au cours de référence de la Banque centrale européenne de son jour de délivrance.',
        style: 'small',
        margin: [0, 10, 0, 0],
      },
      {
        stack: [
          { text: `Fait à ${place || '……………'}, le ${frenchDateOf(issuedAt, settings.timeZone)}` },
          { text: settings.signatoryName || '', bold: true, margin: [0, 16, 0, 0] },
          { text: settings.signatoryTitle || '' },
        ],
        margin: [260, 30, 0, 0],
      },
    ],
    defaultStyle: { fontSize: 10, lineHeight: 1.2 },
    styles: {
      title: { fontSize: 15, bold: true },
      subtitle: { fontSize: 10, color: '#444444', margin: [0, 4, 0, 0] },
      section: { fontSize: 11, bold: true, color: '#1c4e80' },
      small: { fontSize: 8.5, color: '#444444' },
    },
  };
}
