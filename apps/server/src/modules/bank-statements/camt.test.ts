import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import iconv from 'iconv-lite';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { readIso20022Fixture, schemaErrors } from '../../../test/fixtures/iso20022/schemas.ts';
import {
  BankStatementFileError,
  parseBankStatement,
  readStatementFiles,
  type StatementEntry,
} from './camt.ts';

const STATEMENT_08 = 'camt.053.001.08-statement.xml';
const NOTIFICATION_08 = 'camt.054.001.08-credits.xml';

/** A fixture as bytes, as an upload gives it. */
const fixtureBytes = (name: string): Uint8Array =>
  readFileSync(new URL(`../../../test/fixtures/iso20022/${name}`, import.meta.url));

/** Errors of libxml2 validating `xml` against the camt.053.001.08 schema kept with the fixtures. */
async function camt053SchemaErrors(xml: string): Promise<string[]> {
  const schemaFile = 'camt.053.001.08.xsd';
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [{ fileName: schemaFile, contents: readIso20022Fixture(schemaFile) }],
  });
  return result.valid ? [] : result.errors.map((error) => error.message);
}

function thrownBy(parse: () => unknown): unknown {
  try {
    parse();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
}

const sha256 = (...parts: string[]) => createHash('sha256').update(parts.join('\n')).digest('hex');

const QR_IBAN = 'CH4431999123000889012';

const statement08: StatementEntry[] = [
  {
    entryRef: 'TX-20260612-0001',
    accountIban: QR_IBAN,
    bookingDate: '2026-06-12',
    valueDate: '2026-06-12',
    amountCents: 15000,
    currency: 'CHF',
    direction: 'credit',
    reversal: false,
    isReturn: false,
    debtorName: 'Pia Muster',
    debtorIban: 'CH9300762011623852957',
    reference: { type: 'QRR', value: '210000000003139471430009017' },
    text: '',
    endToEndId: 'E2E-QRR-1',
  },
  {
    entryRef: 'NTRY-0002',
    accountIban: QR_IBAN,
    bookingDate: '2026-06-12',
    valueDate: '2026-06-12',
    amountCents: 8050,
    currency: 'CHF',
    direction: 'credit',
    reversal: false,
    isReturn: false,
    debtorName: 'Association Les Amis',
    debtorIban: 'CH5604835012345678009',
    reference: { type: 'SCOR', value: 'RF18539007547034' },
    text: 'Cotisation 2026',
  },
  {
    entryRef: 'NREF-0003',
    accountIban: QR_IBAN,
    bookingDate: '2026-06-12',
    valueDate: '2026-06-13',
    amountCents: 4500,
    currency: 'CHF',
    direction: 'credit',
    reversal: false,
    isReturn: false,
    debtorName: 'Jean Dupont',
    text: 'Facture F-2026-0042 merci',
  },
  {
    entryRef: 'NTRY-0004#1',
    accountIban: QR_IBAN,
    bookingDate: '2026-06-12',
    valueDate: '2026-06-12',
    amountCents: 10000,
    currency: 'CHF',
    direction: 'credit',
    reversal: false,
    isReturn: false,
    debtorName: 'Anna Beispiel',
    debtorIban: 'CH9300762011623852957',
    reference: { type: 'QRR', value: '210000000003139471430009025' },
    text: '',
    endToEndId: 'E2E-BATCH-1',
  },
  {
    entryRef: 'NTRY-0004#2',
    accountIban: QR_IBAN,
    bookingDate: '2026-06-12',
    valueDate: '2026-06-12',
    amountCents: 20000,
    currency: 'CHF',
    direction: 'credit',
    reversal: false,
    isReturn: false,
    debtorName: 'Marc Exemple',
    reference: { type: 'SCOR', value: 'RF18539007547034' },
    text: '',
    endToEndId: 'E2E-BATCH-2',
  },
  {
    entryRef: sha256(QR_IBAN, '2026-06-12', '2500', 'CHF', 'debit', 'Frais de tenue de compte'),
    accountIban: QR_IBAN,
    bookingDate: '2026-06-12',
    valueDate: '2026-06-12',
    amountCents: 2500,
    currency: 'CHF',
    direction: 'debit',
    reversal: false,
    isReturn: false,
    text: 'Frais de tenue de compte',
  },
  {
    entryRef: 'TX-RTR-0006',
    accountIban: QR_IBAN,
    bookingDate: '2026-06-12',
    valueDate: '2026-06-10',
    amountCents: 1990,
    currency: 'CHF',
    direction: 'debit',
    reversal: false,
    isReturn: true,
    debtorName: 'Luc Débiteur',
    debtorIban: 'CH5604835012345678009',
    text: 'Retour prélèvement AM04',
    endToEndId: 'E2E-DD-6',
  },
  {
    entryRef: 'NTRY-0008',
    accountIban: QR_IBAN,
    bookingDate: '2026-06-12',
    valueDate: '2026-06-12',
    amountCents: 1050,
    currency: 'CHF',
    direction: 'credit',
    reversal: true,
    isReturn: false,
    text: 'Extourne frais',
  },
];

describe('parseBankStatement, camt.053', () => {
  it('the camt.053.001.08 sample is valid against the ISO 20022 schema', async () => {
    expect(await camt053SchemaErrors(readIso20022Fixture(STATEMENT_08))).toEqual([]);
  });

  it('reads every booked transaction of a camt.053.001.08: references, batch, debit, return, reversal; skips pending', () => {
    expect(parseBankStatement(readIso20022Fixture(STATEMENT_08))).toEqual(statement08);
  });

  it('gives the same entryRefs when the same file is read twice, as text or as bytes', () => {
    const first = parseBankStatement(readIso20022Fixture(STATEMENT_08)).map((entry) => entry.entryRef);
    const second = parseBankStatement(fixtureBytes(STATEMENT_08)).map((entry) => entry.entryRef);
    expect(second).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
  });

  it.each(['02', '03', '04', '05', '06', '07', '08'])(
    'recognises camt.053.001.%s by its namespace',
    (version) => {
      const xml = readIso20022Fixture(STATEMENT_08).replace(
        'xsd:camt.053.001.08',
        `xsd:camt.053.001.${version}`,
      );
      expect(parseBankStatement(xml)).toHaveLength(statement08.length);
    },
  );

  it('reads a camt.053.001.02: Sts as a code, Dbtr/Nm directly, the amount of AmtDtls/TxAmt', () => {
    expect(parseBankStatement(readIso20022Fixture('camt.053.001.02-statement.xml'))).toEqual([
      {
        entryRef: '2026042700001',
        accountIban: 'DE89370400440532013000',
        bookingDate: '2026-04-27',
        valueDate: '2026-04-27',
        amountCents: 4200,
        currency: 'EUR',
        direction: 'credit',
        reversal: false,
        isReturn: false,
        debtorName: 'Hans Beispiel',
        debtorIban: 'DE02120300000000202051',
        text: 'Beitrag 2026 Rechnung R-17',
        endToEndId: 'MITGLIED-17',
      },
    ]);
  });

  it('reads a Latin-1 camt.053.001.04 in the encoding its declaration names', () => {
    const [entry, ...rest] = parseBankStatement(fixtureBytes('camt.053.001.04-latin1.xml'));
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      entryRef: 'CH04-0001',
      bookingDate: '2026-03-01',
      amountCents: 7500,
      currency: 'CHF',
      debtorName: 'Zoë Müller-Gâteau',
      reference: { type: 'QRR', value: '000000000000000000000056787' },
      text: 'Cotisation année 2026',
      endToEndId: 'E2E-04',
    });
  });

  it('reads a camt.053.001.06 with an SCOR reference, keying on the transaction reference', () => {
    expect(parseBankStatement(readIso20022Fixture('camt.053.001.06-statement.xml'))).toEqual([
      {
        entryRef: 'FR-06-0001-TX',
        accountIban: 'FR7630006000011234567890189',
        bookingDate: '2026-05-04',
        valueDate: '2026-05-04',
        amountCents: 3500,
        currency: 'EUR',
        direction: 'credit',
        reversal: false,
        isReturn: false,
        debtorName: 'Sophie Leroy',
        debtorIban: 'FR1420041010050500013M02606',
        reference: { type: 'SCOR', value: 'RF712348231' },
        text: '',
        endToEndId: 'E2E-06',
      },
    ]);
  });

  it('numbers the transactions of a batch whose own references repeat the entry one', () => {
    const xml = readIso20022Fixture(STATEMENT_08)
      .replace(
        '<Refs><EndToEndId>E2E-BATCH-1',
        '<Refs><AcctSvcrRef>NTRY-0004</AcctSvcrRef><EndToEndId>E2E-BATCH-1',
      )
      .replace(
        '<Refs><EndToEndId>E2E-BATCH-2',
        '<Refs><AcctSvcrRef>TX-B2</AcctSvcrRef><EndToEndId>E2E-BATCH-2',
      );
    const refs = parseBankStatement(xml).map((entry) => entry.entryRef);
    expect(refs.slice(3, 5)).toEqual(['NTRY-0004#1', 'TX-B2']);
  });

  it('ignores a reference of another type, and untyped references of neither shape', () => {
    const xml = readIso20022Fixture(STATEMENT_08)
      .replace('<Prtry>QRR</Prtry>', '<Prtry>ISR</Prtry>')
      .replace('21 00000 00003 13947 14300 09025', '2100000000031394714300090');
    const entries = parseBankStatement(xml);
    expect(entries[0]).not.toHaveProperty('reference');
    expect(entries[3]).not.toHaveProperty('reference');
  });
});

describe('parseBankStatement, camt.054', () => {
  it('the camt.054.001.08 sample is valid against the ISO 20022 schema', async () => {
    expect(await schemaErrors(readIso20022Fixture(NOTIFICATION_08), 'camt.054.001.08.xsd')).toEqual([]);
  });

  it('reads the booked credits of a camt.054.001.08, with the date of a BookgDt/DtTm', () => {
    expect(parseBankStatement(readIso20022Fixture(NOTIFICATION_08))).toEqual([
      {
        entryRef: 'ZV20260612/000123/1',
        accountIban: QR_IBAN,
        bookingDate: '2026-06-12',
        valueDate: '2026-06-12',
        amountCents: 125000,
        currency: 'CHF',
        direction: 'credit',
        reversal: false,
        isReturn: false,
        debtorName: 'Fondation Exemple',
        debtorIban: 'CH9300762011623852957',
        reference: { type: 'QRR', value: '000000000000000000000012340' },
        text: '',
        endToEndId: 'QR-E2E-77',
      },
      {
        entryRef: 'ZV20260612/000124',
        accountIban: QR_IBAN,
        bookingDate: '2026-06-12',
        amountCents: 6000,
        currency: 'EUR',
        direction: 'credit',
        reversal: false,
        isReturn: false,
        debtorName: 'Claire Martin',
        debtorIban: 'FR7630006000011234567890189',
        text: 'Adhesion 2026 facture 2026-118',
        endToEndId: 'SEPA-9981',
      },
    ]);
  });

  it('reads a namespace-prefixed camt.054.001.02; identical unreferenced payments keep distinct keys', () => {
    const iban = 'FR7630006000011234567890189';
    const hash = sha256(iban, '2026-02-10', '1000', 'EUR', 'credit', 'Don');
    const common = {
      accountIban: iban,
      bookingDate: '2026-02-10',
      currency: 'EUR',
      direction: 'credit',
      reversal: false,
      isReturn: false,
    };
    expect(parseBankStatement(readIso20022Fixture('camt.054.001.02-credits.xml'))).toEqual([
      { entryRef: hash, ...common, amountCents: 1000, text: 'Don' },
      { entryRef: `${hash}#2`, ...common, amountCents: 1000, text: 'Don' },
      {
        entryRef: '00042',
        ...common,
        amountCents: 750,
        debtorName: 'A & B Sàrl',
        reference: { type: 'SCOR', value: 'RF18539007547034' },
        text: '',
        endToEndId: 'E2E-02-B',
      },
    ]);
  });
});

describe('parseBankStatement, refused files', () => {
  const camt = readIso20022Fixture(STATEMENT_08);

  it.each<[string, string | Uint8Array, BankStatementFileError['reason'], RegExp]>([
    ['text that is not XML', 'Date;Amount\n2026-06-12;150.00', 'not_xml', /not well-formed/],
    ['truncated XML', camt.slice(0, 900), 'not_xml', /not well-formed/],
    [
      'a DOCTYPE with entities',
      `<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>${camt.slice(camt.indexOf('<Document'))}`,
      'doctype',
      /DOCTYPE/,
    ],
    [
      'an unknown namespace (a pain.002 status report)',
      readIso20022Fixture('pain.002.001.03-rejects.xml'),
      'unknown_message',
      /not a bank statement \(urn:iso:std:iso:20022:tech:xsd:pain\.002\.001\.03\).*camt\.053\.001\.02 to \.08.*camt\.054/,
    ],
    [
      'an unsupported version',
      camt.replace('xsd:camt.053.001.08', 'xsd:camt.053.001.09'),
      'unknown_message',
      /camt\.053\.001\.09/,
    ],
    ['no namespace', camt.replace(/ xmlns="[^"]*"/, ''), 'unknown_message', /no ISO 20022 namespace/],
    ['a root other than Document', '<?xml version="1.0"?><Other/>', 'unknown_message', /not Document/],
    [
      'a camt.053 without its statement element',
      camt.replaceAll('BkToCstmrStmt', 'BkToCstmrDbtCdtNtfctn'),
      'malformed',
      /Document\/BkToCstmrStmt is missing/,
    ],
    [
      'an amount of more than 2 decimals',
      camt.replace(
        '<Amt Ccy="CHF">80.50</Amt>\n        <CdtDbtInd>CRDT</CdtDbtInd>\n        <Sts>',
        '<Amt Ccy="CHF">80.505</Amt>\n        <CdtDbtInd>CRDT</CdtDbtInd>\n        <Sts>',
      ),
      'malformed',
      /Stmt\[1\]\/Ntry\[2\]\/Amt is not an amount with at most 2 decimals \(80\.505\)/,
    ],
    [
      'a booked entry without booking date',
      camt.replace('<BookgDt><Dt>2026-06-12</Dt></BookgDt>', ''),
      'malformed',
      /Ntry\[1\]\/BookgDt\/Dt is missing/,
    ],
    [
      'a batch transaction without amount',
      camt.replace('<Amt Ccy="CHF">200.00</Amt>', ''),
      'malformed',
      /Ntry\[4\]\/NtryDtls\/TxDtls\[2\]\/Amt is missing/,
    ],
  ])('refuses %s', (_label, file, reason, message) => {
    const error = thrownBy(() => parseBankStatement(file));
    expect(error).toBeInstanceOf(BankStatementFileError);
    expect(error).toMatchObject({ reason, code: 'bank_statements.invalid_file', status: 400 });
    expect((error as Error).message).toMatch(message);
  });

  it('reads amounts with trailing zeros past the cents', () => {
    const xml = camt.replace(
      '<Amt Ccy="CHF">150.00</Amt>\n            <CdtDbtInd>',
      '<Amt Ccy="CHF">150.00000</Amt>\n            <CdtDbtInd>',
    );
    expect(parseBankStatement(xml)[0]?.amountCents).toBe(15000);
  });
});

describe('readStatementFiles', () => {
  it('parses a single XML file', async () => {
    expect(await readStatementFiles(fixtureBytes(STATEMENT_08), 'statement.xml')).toEqual(statement08);
  });

  it('reads every XML file of a ZIP in name order, ignoring other files and nested ZIPs', async () => {
    const inner = new JSZip();
    inner.file('hidden.xml', readIso20022Fixture(NOTIFICATION_08));
    const zip = new JSZip();
    zip.file('b-2026-06-12.xml', fixtureBytes(STATEMENT_08));
    zip.file('a-2026-04-27.XML', readIso20022Fixture('camt.053.001.02-statement.xml'));
    zip.file('readme.pdf', 'not a statement');
    zip.file('nested.zip', await inner.generateAsync({ type: 'uint8array' }));
    zip.file('__MACOSX/._b-2026-06-12.xml', new Uint8Array([0, 5, 22, 7]));
    const bytes = await zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
    const entries = await readStatementFiles(bytes, 'statements.zip');
    expect(entries.map((entry) => entry.entryRef)).toEqual([
      '2026042700001',
      ...statement08.map((entry) => entry.entryRef),
    ]);
  });

  it('names the file inside the ZIP that is refused', async () => {
    const zip = new JSZip();
    zip.file('ok.xml', readIso20022Fixture(STATEMENT_08));
    zip.file('wrong.xml', readIso20022Fixture('pain.002.001.03-rejects.xml'));
    const error = await rejectionOf(readStatementFiles(await zip.generateAsync({ type: 'uint8array' })));
    expect(error).toMatchObject({
      reason: 'unknown_message',
      message: expect.stringMatching(/^wrong\.xml: /),
    });
  });

  it('refuses a ZIP whose files declare more than 50 MB unpacked, before unpacking them', async () => {
    const zip = new JSZip();
    zip.file('a.xml', readIso20022Fixture(STATEMENT_08));
    zip.file('b.xml', readIso20022Fixture(STATEMENT_08));
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    // Each central directory header (PK\x01\x02) declares its uncompressed size at offset 24.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let offset = 0; offset < bytes.length - 4; offset++) {
      if (view.getUint32(offset, true) === 0x02014b50) view.setUint32(offset + 24, 30 * 1024 * 1024, true);
    }
    const error = await rejectionOf(readStatementFiles(bytes, 'bomb.zip'));
    expect(error).toBeInstanceOf(BankStatementFileError);
    expect(error).toMatchObject({
      reason: 'zip_too_large',
      status: 400,
      message: expect.stringMatching(/50 MB/),
    });
  });

  it('stops unpacking past 50 MB even when the declared sizes lie', async () => {
    const zip = new JSZip();
    zip.file('big.xml', new Uint8Array(51 * 1024 * 1024).fill(0x20), { compression: 'DEFLATE' });
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let offset = 0; offset < bytes.length - 4; offset++) {
      const signature = view.getUint32(offset, true);
      if (signature === 0x04034b50) view.setUint32(offset + 22, 1000, true);
      if (signature === 0x02014b50) view.setUint32(offset + 24, 1000, true);
    }
    const error = await rejectionOf(readStatementFiles(bytes, 'lying.zip'));
    expect(error).toMatchObject({ reason: 'zip_too_large' });
  });

  it('refuses a ZIP of more than 200 files', async () => {
    const zip = new JSZip();
    for (let index = 0; index < 201; index++) zip.file(`s-${index}.xml`, '<x/>');
    const error = await rejectionOf(readStatementFiles(await zip.generateAsync({ type: 'uint8array' })));
    expect(error).toMatchObject({
      reason: 'zip_too_large',
      message: expect.stringMatching(/more than 200 files/),
    });
  });

  it('refuses a ZIP without XML file, and a damaged ZIP', async () => {
    const zip = new JSZip();
    zip.file('statement.pdf', 'PDF');
    const bytes = await zip.generateAsync({ type: 'uint8array' });
    expect(await rejectionOf(readStatementFiles(bytes, 'pdf.zip'))).toMatchObject({
      reason: 'zip_unreadable',
      message: 'pdf.zip holds no XML bank statement',
    });
    expect(await rejectionOf(readStatementFiles(bytes.slice(0, 40), 'cut.zip'))).toMatchObject({
      reason: 'zip_unreadable',
    });
  });

  it('reads a Latin-1 file given as bytes', async () => {
    const latin1 = iconv.encode(
      readIso20022Fixture(NOTIFICATION_08)
        .replace('encoding="UTF-8"', 'encoding="ISO-8859-1"')
        .replace('Claire Martin', 'Hélène Côté'),
      'latin1',
    );
    expect((await readStatementFiles(latin1))[1]?.debtorName).toBe('Hélène Côté');
  });
});
