import { friendlyFormatIBAN } from 'ibantools';
import type { CanvasElement, Column, Content, TDocumentDefinitions } from 'pdfmake/interfaces';

/** What the mandate form shows (part 2 §7 `/api/subscribers/{id}/rum`). */
export type MandateLetter = {
  creditor: {
    name: string;
    /** Postal address, one line per line. */
    address: string;
    /** Identifiant créancier SEPA (ICS). */
    creditorId: string;
    /** PNG or JPEG data URL, or null. */
    logo: string | null;
  };
  debtor: {
    /** Title, first and last name. */
    name: string;
    addressLines: string[];
    postcode: string;
    town: string;
    country: string;
    /** Electronic format (no spaces), or '' when unknown. */
    iban: string;
    /** '' when unknown: the box stays empty for the debtor to fill in. */
    bic: string;
  };
  /** Référence unique du mandat. */
  mandateReference: string;
};

/** The standard French authorisation and refund-right text of a SEPA Core mandate. */
export function authorisationText(creditorName: string): string {
  return (
    `En signant ce formulaire de mandat, vous autorisez (A) ${creditorName} à envoyer des instructions à votre banque pour débiter votre compte, ` +
    `et (B) votre banque à débiter votre compte conformément aux instructions de ${creditorName}. ` +
    'Vous bénéficiez du droit d’être remboursé par votre banque selon les conditions décrites dans la convention que vous avez passée avec elle. ' +
    'Une demande de remboursement doit être présentée dans les 8 semaines suivant la date de débit de votre compte pour un prélèvement autorisé.'
  );
}

export const DATA_RIGHTS_TEXT =
  'Vos droits concernant le présent mandat sont expliqués dans un document que vous pouvez obtenir auprès de votre banque.';

const PRIVACY_TEXT =
  'Les informations contenues dans le présent mandat sont destinées à n’être utilisées par le créancier que pour la gestion de sa relation avec vous. ' +
  'Vous pouvez exercer vos droits d’accès, de rectification et d’opposition auprès du créancier (règlement (UE) 2016/679 et loi n° 78-17 du 6 janvier 1978 modifiée).';

/** `text` cut to `max` characters with an ellipsis, so that extreme values cannot push the form onto a second page. */
function clip(text: string, max: number): string {
  const trimmed = text.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max - 1).trimEnd()}…` : trimmed;
}

const GREY = '#555555';
const LINE = '#333333';

/** A labelled box: the label above, the value (or nothing, to fill in by hand) inside. */
function field(
  label: string,
  value: string,
  { height = 18, bold = false, width }: { height?: number; bold?: boolean; width?: number } = {},
): Column {
  return {
    ...(width ? { width } : {}),
    stack: [
      { text: label, fontSize: 7.5, color: GREY, margin: [0, 0, 0, 1.5] },
      {
        table: {
          widths: ['*'],
          heights: [height],
          body: [[{ text: value, fontSize: 10, bold, margin: [2, 2, 2, 0] }]],
        },
        layout: {
          hLineWidth: () => 0.6,
          vLineWidth: () => 0.6,
          hLineColor: () => LINE,
          vLineColor: () => LINE,
        },
      },
    ],
    margin: [0, 0, 0, 6],
  };
}

/** A checkbox, ticked or not, followed by its label. */
function checkbox(label: string, ticked: boolean): Column {
  const box: CanvasElement[] = [{ type: 'rect', x: 0, y: 1, w: 9, h: 9, lineWidth: 0.8, lineColor: LINE }];
  if (ticked) {
    box.push(
      { type: 'line', x1: 1.5, y1: 2.5, x2: 7.5, y2: 8.5, lineWidth: 1.2 },
      { type: 'line', x1: 7.5, y1: 2.5, x2: 1.5, y2: 8.5, lineWidth: 1.2 },
    );
  }
  return {
    columns: [
      { canvas: box, width: 14 },
      { text: label, fontSize: 9.5, width: 'auto' },
    ],
    columnGap: 2,
    width: 'auto',
  };
}

function sectionTitle(text: string): Content {
  return { text, bold: true, fontSize: 10.5, margin: [0, 8, 0, 5] };
}

/**
 * The one-page A4 "Mandat de prélèvement SEPA" form: creditor identity and logo, mandate reference,
 * authorisation text, debtor and account boxes (filled when known), recurrent payment ticked,
 * place, date and signature boxes, and the rights and privacy notes.
 */
export function mandateLetterDocument(letter: MandateLetter): TDocumentDefinitions {
  const creditor = { ...letter.creditor, name: clip(letter.creditor.name, 80) };
  const debtor = {
    ...letter.debtor,
    name: clip(letter.debtor.name, 60),
    addressLines: letter.debtor.addressLines.map((line) => clip(line, 48)).filter(Boolean),
    postcode: clip(letter.debtor.postcode, 12),
    town: clip(letter.debtor.town, 36),
    country: clip(letter.debtor.country, 48),
  };
  const creditorAddress = creditor.address
    .split(/\r?\n/)
    .map((line) => clip(line, 48))
    .filter(Boolean)
    .slice(0, 4);
  const header: Content = {
    columns: [
      creditor.logo ? { image: 'logo', fit: [150, 64], width: 160 } : { text: '', width: 160 },
      {
        stack: [
          { text: creditor.name, bold: true, fontSize: 12 },
          ...creditorAddress.map((line) => ({ text: line, fontSize: 9, color: GREY })),
        ],
        alignment: 'right',
      },
    ],
  };
  const debtorAddress = debtor.addressLines;
  const iban = debtor.iban ? (friendlyFormatIBAN(debtor.iban) ?? debtor.iban) : '';

  return {
    pageSize: 'A4',
    pageMargins: [42, 36, 42, 36],
    info: {
      title: `Mandat de prélèvement SEPA ${letter.mandateReference}`,
      author: creditor.name,
      subject: `Mandat de prélèvement SEPA de ${debtor.name}`,
    },
    ...(creditor.logo ? { images: { logo: creditor.logo } } : {}),
    defaultStyle: { fontSize: 9.5, lineHeight: 1.15 },
    content: [
      header,
      {
        text: 'Mandat de prélèvement SEPA',
        fontSize: 18,
        bold: true,
        alignment: 'center',
        margin: [0, 14, 0, 8],
      },
      {
        columns: [
          field('Référence unique du mandat (RUM)', letter.mandateReference, { bold: true }),
          field('Identifiant créancier SEPA (ICS)', creditor.creditorId, { bold: true }),
        ],
        columnGap: 14,
      },
      { text: authorisationText(creditor.name), alignment: 'justify', margin: [0, 4, 0, 2] },
      {
        columns: [
          {
            stack: [
              sectionTitle('Titulaire du compte à débiter (débiteur)'),
              field('Nom, prénom', debtor.name),
              field('Adresse', debtorAddress.join('\n'), { height: 42 }),
              {
                columns: [field('Code postal', debtor.postcode, { width: 80 }), field('Ville', debtor.town)],
                columnGap: 8,
              },
              field('Pays', debtor.country),
            ],
          },
          {
            stack: [
              sectionTitle('Créancier'),
              field('Nom', creditor.name),
              field('Adresse', creditorAddress.join('\n'), { height: 42 }),
              field('Identifiant créancier SEPA (ICS)', creditor.creditorId),
            ],
          },
        ],
        columnGap: 18,
      },
      sectionTitle('Compte à débiter'),
      {
        columns: [
          field('IBAN (numéro d’identification international du compte bancaire)', iban),
          field('BIC (code d’identification de la banque)', debtor.bic, { width: 170 }),
        ],
        columnGap: 14,
      },
      sectionTitle('Type de paiement'),
      {
        columns: [checkbox('Paiement récurrent / répétitif', true), checkbox('Paiement ponctuel', false)],
        columnGap: 30,
        margin: [0, 0, 0, 6],
      },
      {
        columns: [
          {
            stack: [field('Signé à', '', { height: 20 }), field('Le (date)', '', { height: 20 })],
            width: 200,
          },
          field('Signature', '', { height: 66 }),
        ],
        columnGap: 18,
        margin: [0, 6, 0, 0],
      },
      {
        text: [{ text: 'Note : ', bold: true }, DATA_RIGHTS_TEXT],
        fontSize: 8.5,
        margin: [0, 8, 0, 3],
      },
      { text: PRIVACY_TEXT, fontSize: 7.5, color: GREY, alignment: 'justify' },
      {
        text: `Merci de renvoyer ce mandat daté et signé, accompagné d’un relevé d’identité bancaire (RIB), à ${[creditor.name, ...creditorAddress].join(', ')}.`,
        fontSize: 8.5,
        margin: [0, 6, 0, 0],
      },
    ],
  };
}
