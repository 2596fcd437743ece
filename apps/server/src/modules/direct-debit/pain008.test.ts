import fc from 'fast-check';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { schemaErrors } from '../../../test/fixtures/iso20022/schemas.ts';
import {
  buildPain008,
  Pain008Error,
  type SepaDirectDebitCollection,
  type SepaDirectDebitTransaction,
  toSepaText,
} from './pain008.ts';

// Valid test accounts: two at the same French bank (code 30006), others at other banks.
const IBAN_BANK_A = 'FR7630006000011234567890189';
const IBAN_BANK_A_OTHER_ACCOUNT = 'FR7630006000019876543210076';
const IBAN_BANK_B = 'FR7630004008200001234567864';
const IBAN_BANK_C = 'FR1420041010050500013M02606';
const IBAN_GERMANY = 'DE89370400440532013000';
const IBAN_SWITZERLAND = 'CH9300762011623852957';

function transaction(overrides: Partial<SepaDirectDebitTransaction> = {}): SepaDirectDebitTransaction {
  return {
    endToEndId: 'E2E-1',
    amountCents: 2500,
    dueDate: '2026-06-05',
    sequenceType: 'RCUR',
    mandate: { rum: 'RUM-000001-20250102', signedOn: '2025-01-02' },
    debtor: { name: 'Jeanne Martin', iban: IBAN_BANK_B, bic: 'BNPAFRPP' },
    remittance: 'Cotisation juin 2026',
    ...overrides,
  };
}

function collection(overrides: Partial<SepaDirectDebitCollection> = {}): SepaDirectDebitCollection {
  return {
    messageId: 'COLL-2026-06',
    createdAt: new Date('2026-05-21T08:30:12.345Z'),
    creditor: {
      name: 'Les Amis de la Revue',
      iban: 'FR76 3000 6000 0112 3456 7890 189',
      bic: 'AGRIFRPPXXX',
      creditorId: 'FR72ZZZ123456',
      address: {
        street: 'rue de la Paix',
        buildingNumber: '12',
        postcode: '75002',
        town: 'Paris',
        country: 'FR',
      },
    },
    transactions: [transaction()],
    ...overrides,
  };
}

/** FRST, RCUR and OOFF collections on two due dates, given out of order. */
const mixedTransactions: SepaDirectDebitTransaction[] = [
  transaction({ endToEndId: 'E2E-1', sequenceType: 'RCUR', dueDate: '2026-06-20', amountCents: 1000 }),
  transaction({ endToEndId: 'E2E-2', sequenceType: 'FRST', dueDate: '2026-06-05', amountCents: 1250 }),
  transaction({ endToEndId: 'E2E-3', sequenceType: 'OOFF', dueDate: '2026-06-05', amountCents: 5000 }),
  transaction({ endToEndId: 'E2E-4', sequenceType: 'RCUR', dueDate: '2026-06-05', amountCents: 999 }),
  transaction({ endToEndId: 'E2E-5', sequenceType: 'FRST', dueDate: '2026-06-20', amountCents: 1 }),
  transaction({ endToEndId: 'E2E-6', sequenceType: 'RCUR', dueDate: '2026-06-05', amountCents: 3001 }),
];

const amendmentTransactions: SepaDirectDebitTransaction[] = [
  transaction({
    endToEndId: 'E2E-RUM',
    mandate: { rum: 'RUM-NEW-1', signedOn: '2024-03-01', amendment: { originalRum: 'OLD-REF-77' } },
  }),
  transaction({
    endToEndId: 'E2E-SAME-BANK',
    debtor: { name: 'Paul Durand', iban: IBAN_BANK_A_OTHER_ACCOUNT },
    mandate: { rum: 'RUM-2', signedOn: '2024-03-01', amendment: { originalIban: IBAN_BANK_A } },
  }),
  transaction({
    endToEndId: 'E2E-OTHER-BANK',
    sequenceType: 'FRST',
    debtor: { name: 'Lea Petit', iban: IBAN_BANK_C },
    mandate: { rum: 'RUM-3', signedOn: '2024-03-01', amendment: { originalIban: IBAN_BANK_B } },
  }),
  transaction({
    endToEndId: 'E2E-CREDITOR',
    mandate: {
      rum: 'RUM-4',
      signedOn: '2024-03-01',
      amendment: { originalCreditorId: 'DE98ZZZ09999999999', originalRum: 'RUM-4-OLD' },
    },
  }),
];

const accentedTransactions: SepaDirectDebitTransaction[] = [
  transaction({
    endToEndId: 'E2E-ACCENTS',
    debtor: {
      name: 'Zoë Müller-Lüdenscheidt & Cie',
      iban: IBAN_GERMANY,
      bic: 'COBADEFFXXX',
      address: { street: 'Großstraße', buildingNumber: '7', postcode: '50667', town: 'Köln', country: 'de' },
    },
    remittance: 'Adhésion « Amis » — été 2026 ; reçu n° 42 ✓',
  }),
  transaction({
    endToEndId: 'E2E-SWISS',
    debtor: {
      name: 'Søren Ærøe Ødegård',
      iban: IBAN_SWITZERLAND,
      address: { street: 'Rue du Rhône', buildingNumber: '3', town: 'Genève', country: 'CH' },
    },
  }),
];

const ordered = new XMLParser({ preserveOrder: true, ignoreAttributes: false, parseTagValue: false });
const tree = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  isArray: (name) => ['PmtInf', 'DrctDbtTxInf', 'AdrLine'].includes(name),
});

type Node = Record<string, unknown>;

function initiationOf(xml: string): { GrpHdr: Node; PmtInf: Node[] } {
  const document = tree.parse(xml) as { Document: { CstmrDrctDbtInitn: { GrpHdr: Node; PmtInf: Node[] } } };
  return document.Document.CstmrDrctDbtInitn;
}

function batchesOf(xml: string): Node[] {
  return initiationOf(xml).PmtInf;
}

function headerOf(xml: string): Node {
  return initiationOf(xml).GrpHdr;
}

function transactionsOf(batch: Node | undefined): Node[] {
  return (batch?.DrctDbtTxInf as Node[] | undefined) ?? [];
}

function at(node: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((current, key) => (current as Node | undefined)?.[key], node);
}

function cents(amount: unknown): bigint {
  const [whole = '', fraction = ''] = String(amount).split('.');
  expect(fraction).toHaveLength(2);
  return BigInt(whole) * 100n + BigInt(fraction);
}

/** NbOfTxs and CtrlSum of the header and of each batch agree with the transactions they hold. */
function expectConsistentTotals(xml: string): Node {
  const { GrpHdr: header, PmtInf: batches } = initiationOf(xml);
  let count = 0;
  let sum = 0n;
  for (const batch of batches) {
    const transactions = transactionsOf(batch);
    const batchSum = transactions.reduce((total, item) => total + cents(at(item, 'InstdAmt.#text')), 0n);
    expect(batch.NbOfTxs).toBe(String(transactions.length));
    expect(cents(batch.CtrlSum)).toBe(batchSum);
    count += transactions.length;
    sum += batchSum;
  }
  expect(header.NbOfTxs).toBe(String(count));
  expect(cents(header.CtrlSum)).toBe(sum);
  return header;
}

describe('toSepaText', () => {
  it.each([
    ['Zoë Müller-Lüdenscheidt & Cie', 70, 'Zoe Muller-Ludenscheidt + Cie'],
    ['Großstraße', 70, 'Grossstrasse'],
    ['Ærøskøbing Æble', 70, 'AEroskobing AEble'],
    ['Œuvre « Les Amis »', 70, 'OEuvre Les Amis'],
    ['François — l’été', 70, "Francois - l'ete"],
    ['info@exemple.fr; tél. 01 23', 70, 'info exemple.fr tel. 01 23'],
    ['Don 10€', 70, 'Don 10 EUR'],
    ['Ελληνικά 😀 ok', 70, 'ok'],
    ['Łódź Straße', 70, 'Lodz Strasse'],
    ['  spaces   inside  ', 70, 'spaces inside'],
    ['abc def', 4, 'abc'],
    ['<b>&"', 70, 'b +'],
  ])('%j (max %i) -> %j', (text, maxLength, expected) => {
    expect(toSepaText(text, maxLength)).toBe(expected);
  });

  it('cuts at the maximum length (Ustrd 140)', () => {
    expect(toSepaText('x'.repeat(300), 140)).toBe('x'.repeat(140));
  });

  it('returns only SEPA characters, trimmed, within the maximum length, for any text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.integer({ min: 1, max: 140 }),
        (text, max) => {
          const result = toSepaText(text, max);
          expect(result).toMatch(/^[A-Za-z0-9/\-?:().,'+ ]*$/);
          expect(result.length).toBeLessThanOrEqual(max);
          expect(result).toBe(result.trim());
        },
      ),
    );
  });
});

describe('buildPain008 pain.008.001.02 (checked against the ISO 20022 schema)', () => {
  const version = 'pain.008.001.02' as const;

  it('writes one batch per due date and sequence type, ordered by date then FRST, RCUR, OOFF', async () => {
    const xml = buildPain008(collection({ version, transactions: mixedTransactions }));
    expect(await schemaErrors(xml, 'pain.008.001.02.xsd')).toEqual([]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);

    const batches = batchesOf(xml);
    expect(
      batches.map((batch) => [
        batch.PmtInfId,
        batch.ReqdColltnDt,
        at(batch, 'PmtTpInf.SeqTp'),
        transactionsOf(batch).map((item) => at(item, 'PmtId.EndToEndId')),
      ]),
    ).toEqual([
      ['COLL-2026-06-1', '2026-06-05', 'FRST', ['E2E-2']],
      ['COLL-2026-06-2', '2026-06-05', 'RCUR', ['E2E-4', 'E2E-6']],
      ['COLL-2026-06-3', '2026-06-05', 'OOFF', ['E2E-3']],
      ['COLL-2026-06-4', '2026-06-20', 'FRST', ['E2E-5']],
      ['COLL-2026-06-5', '2026-06-20', 'RCUR', ['E2E-1']],
    ]);
    expect(batches[1]).toMatchObject({ NbOfTxs: '2', CtrlSum: '40.00', PmtMtd: 'DD', BtchBookg: 'true' });
    expect(headerOf(xml)).toMatchObject({
      MsgId: 'COLL-2026-06',
      CreDtTm: '2026-05-21T08:30:12Z',
      NbOfTxs: '6',
      CtrlSum: '112.51',
      InitgPty: { Nm: 'Les Amis de la Revue' },
    });
    expectConsistentTotals(xml);

    const [first] = batches;
    expect(at(first, 'PmtTpInf.SvcLvl.Cd')).toBe('SEPA');
    expect(at(first, 'PmtTpInf.LclInstrm.Cd')).toBe('CORE');
    expect(at(first, 'CdtrAgt.FinInstnId.BIC')).toBe('AGRIFRPPXXX');
    expect(at(first, 'CdtrAcct.Id.IBAN')).toBe(IBAN_BANK_A);
    expect(first?.ChrgBr).toBe('SLEV');
    expect(at(first, 'CdtrSchmeId.Id.PrvtId.Othr')).toEqual({
      Id: 'FR72ZZZ123456',
      SchmeNm: { Prtry: 'SEPA' },
    });
    expect(at(first, 'Cdtr.PstlAdr')).toEqual({ Ctry: 'FR', AdrLine: ['12 rue de la Paix', '75002 Paris'] });
  });

  it('writes amendments: new RUM, new account at the same bank, new bank (SMNDA), new creditor id', async () => {
    const xml = buildPain008(collection({ version, transactions: amendmentTransactions }));
    expect(await schemaErrors(xml, 'pain.008.001.02.xsd')).toEqual([]);
    const mandates = Object.fromEntries(
      batchesOf(xml).flatMap((batch) =>
        transactionsOf(batch).map((item) => [
          at(item, 'PmtId.EndToEndId'),
          at(item, 'DrctDbtTx.MndtRltdInf'),
        ]),
      ),
    );
    expect(mandates['E2E-RUM']).toEqual({
      MndtId: 'RUM-NEW-1',
      DtOfSgntr: '2024-03-01',
      AmdmntInd: 'true',
      AmdmntInfDtls: { OrgnlMndtId: 'OLD-REF-77' },
    });
    expect(at(mandates['E2E-SAME-BANK'], 'AmdmntInfDtls')).toEqual({
      OrgnlDbtrAcct: { Id: { IBAN: IBAN_BANK_A } },
    });
    expect(at(mandates['E2E-OTHER-BANK'], 'AmdmntInfDtls')).toEqual({
      OrgnlDbtrAgt: { FinInstnId: { Othr: { Id: 'SMNDA' } } },
    });
    expect(at(mandates['E2E-CREDITOR'], 'AmdmntInfDtls')).toEqual({
      OrgnlMndtId: 'RUM-4-OLD',
      OrgnlCdtrSchmeId: {
        Id: { PrvtId: { Othr: { Id: 'DE98ZZZ09999999999', SchmeNm: { Prtry: 'SEPA' } } } },
      },
    });
  });

  it('transliterates names, addresses and remittance texts; NOTPROVIDED for a debtor without BIC', async () => {
    const xml = buildPain008(collection({ version, transactions: accentedTransactions }));
    expect(await schemaErrors(xml, 'pain.008.001.02.xsd')).toEqual([]);
    const [german, swiss] = batchesOf(xml).flatMap((batch) => transactionsOf(batch));
    expect(at(german, 'Dbtr')).toEqual({
      Nm: 'Zoe Muller-Ludenscheidt + Cie',
      PstlAdr: { Ctry: 'DE', AdrLine: ['Grossstrasse 7', '50667 Koln'] },
    });
    expect(at(german, 'RmtInf.Ustrd')).toBe('Adhesion Amis - ete 2026 recu n 42');
    expect(at(german, 'DbtrAgt.FinInstnId.BIC')).toBe('COBADEFFXXX');
    expect(at(swiss, 'Dbtr.Nm')).toBe('Soren AEroe Odegard');
    expect(at(swiss, 'DbtrAgt.FinInstnId')).toEqual({ Othr: { Id: 'NOTPROVIDED' } });
    expect(xml).not.toMatch(/[^\x20-\x7e\n]/);
  });

  it('writes a creditor without BIC as NOTPROVIDED and leaves an empty remittance out', async () => {
    const base = collection();
    const xml = buildPain008({
      ...base,
      version,
      creditor: { ...base.creditor, bic: undefined, address: undefined },
      transactions: [transaction({ remittance: '😀' })],
    });
    expect(await schemaErrors(xml, 'pain.008.001.02.xsd')).toEqual([]);
    const [batch] = batchesOf(xml);
    expect(at(batch, 'CdtrAgt.FinInstnId')).toEqual({ Othr: { Id: 'NOTPROVIDED' } });
    expect(at(batch, 'Cdtr')).toEqual({ Nm: 'Les Amis de la Revue' });
    expect(transactionsOf(batch)[0]).not.toHaveProperty('RmtInf');
  });

  it.each([
    ['an unknown payment method', (xml: string) => xml.replace('<PmtMtd>DD</PmtMtd>', '<PmtMtd>XX</PmtMtd>')],
    ['a missing NbOfTxs', (xml: string) => xml.replace(/<NbOfTxs>\d+<\/NbOfTxs>/, '')],
    ['an amount with six decimals', (xml: string) => xml.replace('Ccy="EUR">25.00<', 'Ccy="EUR">25.000001<')],
    ['a lower-case BIC', (xml: string) => xml.replace('AGRIFRPPXXX', 'agrifrppxxx')],
    [
      'elements out of order',
      (xml: string) => xml.replace(/(<MndtId>[^<]*<\/MndtId>)(\s*)(<DtOfSgntr>[^<]*<\/DtOfSgntr>)/, '$3$2$1'),
    ],
  ])('the schema check rejects a file with %s', async (_label, breakFile) => {
    const xml = buildPain008(collection({ version }));
    expect(await schemaErrors(xml, 'pain.008.001.02.xsd')).toEqual([]);
    const broken = breakFile(xml);
    expect(broken).not.toBe(xml);
    expect((await schemaErrors(broken, 'pain.008.001.02.xsd')).length).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------------------------------------
// pain.008.001.08: no official schema here. The structure below is the ISO 20022 sequence of each
// element the EPC SDD Core Customer-to-Bank implementation guidelines (2023) use, in order, with
// its cardinality; leaves carry the format the guidelines give. Anything else is an error.

type Particle = readonly [name: string, type: string, min: number, max: number];
type Definition = readonly Particle[] | RegExp;

const text = (max: number) => new RegExp(`^[A-Za-z0-9/\\-?:().,'+ ]{1,${max}}$`);
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d{1,15}\.\d{2}$/;

const PAIN_008_001_08: Record<string, Definition> = {
  Document: [['CstmrDrctDbtInitn', 'CustomerDirectDebitInitiationV08', 1, 1]],
  CustomerDirectDebitInitiationV08: [
    ['GrpHdr', 'GroupHeader83', 1, 1],
    ['PmtInf', 'PaymentInstruction29', 1, Number.POSITIVE_INFINITY],
  ],
  GroupHeader83: [
    ['MsgId', 'Max35Text', 1, 1],
    ['CreDtTm', 'ISODateTime', 1, 1],
    ['NbOfTxs', 'Max15NumericText', 1, 1],
    ['CtrlSum', 'Amount', 1, 1],
    ['InitgPty', 'PartyIdentificationName', 1, 1],
  ],
  PartyIdentificationName: [['Nm', 'Max70Text', 1, 1]],
  PaymentInstruction29: [
    ['PmtInfId', 'Max35Text', 1, 1],
    ['PmtMtd', 'DirectDebitMethod', 1, 1],
    ['BtchBookg', 'TrueFalse', 0, 1],
    ['NbOfTxs', 'Max15NumericText', 1, 1],
    ['CtrlSum', 'Amount', 1, 1],
    ['PmtTpInf', 'PaymentTypeInformation29', 1, 1],
    ['ReqdColltnDt', 'ISODate', 1, 1],
    ['Cdtr', 'PartyIdentification135', 1, 1],
    ['CdtrAcct', 'CashAccount38', 1, 1],
    ['CdtrAgt', 'BranchAndFinancialInstitutionIdentification6', 1, 1],
    ['ChrgBr', 'ChargeBearerSLEV', 1, 1],
    ['CdtrSchmeId', 'CreditorSchemeIdentification', 1, 1],
    ['DrctDbtTxInf', 'DirectDebitTransactionInformation23', 1, Number.POSITIVE_INFINITY],
  ],
  PaymentTypeInformation29: [
    ['SvcLvl', 'ServiceLevelSEPA', 1, 1],
    ['LclInstrm', 'LocalInstrumentCORE', 1, 1],
    ['SeqTp', 'SequenceType3Code', 1, 1],
  ],
  ServiceLevelSEPA: [['Cd', 'SEPA', 1, 1]],
  LocalInstrumentCORE: [['Cd', 'CORE', 1, 1]],
  PartyIdentification135: [
    ['Nm', 'Max70Text', 1, 1],
    ['PstlAdr', 'PostalAddress24', 0, 1],
  ],
  PostalAddress24: [
    ['StrtNm', 'Max70Text', 0, 1],
    ['BldgNb', 'Max16Text', 0, 1],
    ['PstCd', 'Max16Text', 0, 1],
    ['TwnNm', 'Max35Text', 1, 1],
    ['Ctry', 'CountryCode', 1, 1],
  ],
  CashAccount38: [['Id', 'AccountIdentificationIBAN', 1, 1]],
  AccountIdentificationIBAN: [['IBAN', 'IBAN2007Identifier', 1, 1]],
  BranchAndFinancialInstitutionIdentification6: [
    ['FinInstnId', 'FinancialInstitutionIdentification18', 1, 1],
  ],
  // A choice in effect: BICFI, or Othr/Id NOTPROVIDED (checked below: exactly one of them).
  FinancialInstitutionIdentification18: [
    ['BICFI', 'BICFIDec2014Identifier', 0, 1],
    ['Othr', 'GenericFinancialIdentificationNotProvided', 0, 1],
  ],
  GenericFinancialIdentificationNotProvided: [['Id', 'NOTPROVIDED', 1, 1]],
  CreditorSchemeIdentification: [['Id', 'PartyPrivateIdentification', 1, 1]],
  PartyPrivateIdentification: [['PrvtId', 'PersonIdentification', 1, 1]],
  PersonIdentification: [['Othr', 'GenericPersonIdentificationSEPA', 1, 1]],
  GenericPersonIdentificationSEPA: [
    ['Id', 'CreditorIdentifier', 1, 1],
    ['SchmeNm', 'SchemeNameSEPA', 1, 1],
  ],
  SchemeNameSEPA: [['Prtry', 'SEPA', 1, 1]],
  DirectDebitTransactionInformation23: [
    ['PmtId', 'PaymentIdentification6', 1, 1],
    ['InstdAmt', 'ActiveOrHistoricCurrencyAndAmount', 1, 1],
    ['DrctDbtTx', 'DirectDebitTransaction10', 1, 1],
    ['DbtrAgt', 'BranchAndFinancialInstitutionIdentification6', 1, 1],
    ['Dbtr', 'PartyIdentification135', 1, 1],
    ['DbtrAcct', 'CashAccount38', 1, 1],
    ['RmtInf', 'RemittanceInformationUnstructured', 0, 1],
  ],
  PaymentIdentification6: [['EndToEndId', 'Max35Text', 1, 1]],
  DirectDebitTransaction10: [['MndtRltdInf', 'MandateRelatedInformation14', 1, 1]],
  MandateRelatedInformation14: [
    ['MndtId', 'Max35Text', 1, 1],
    ['DtOfSgntr', 'ISODate', 1, 1],
    ['AmdmntInd', 'TrueFalse', 1, 1],
    ['AmdmntInfDtls', 'AmendmentInformationDetails13', 0, 1],
  ],
  AmendmentInformationDetails13: [
    ['OrgnlMndtId', 'Max35Text', 0, 1],
    ['OrgnlCdtrSchmeId', 'CreditorSchemeIdentification', 0, 1],
    ['OrgnlDbtrAcct', 'CashAccount38', 0, 1],
    ['OrgnlDbtrAgt', 'OriginalDebtorAgentSMNDA', 0, 1],
  ],
  OriginalDebtorAgentSMNDA: [['FinInstnId', 'FinancialInstitutionSMNDA', 1, 1]],
  FinancialInstitutionSMNDA: [['Othr', 'GenericFinancialIdentificationSMNDA', 1, 1]],
  GenericFinancialIdentificationSMNDA: [['Id', 'SMNDA', 1, 1]],
  RemittanceInformationUnstructured: [['Ustrd', 'Max140Text', 1, 1]],
  Max16Text: text(16),
  Max35Text: text(35),
  Max70Text: text(70),
  Max140Text: text(140),
  Max15NumericText: /^[0-9]{1,15}$/,
  ISODate: DATE,
  ISODateTime: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/,
  Amount: AMOUNT,
  ActiveOrHistoricCurrencyAndAmount: AMOUNT,
  TrueFalse: /^(true|false)$/,
  DirectDebitMethod: /^DD$/,
  ChargeBearerSLEV: /^SLEV$/,
  SequenceType3Code: /^(FRST|RCUR|OOFF|FNAL)$/,
  SEPA: /^SEPA$/,
  CORE: /^CORE$/,
  NOTPROVIDED: /^NOTPROVIDED$/,
  SMNDA: /^SMNDA$/,
  CountryCode: /^[A-Z]{2}$/,
  IBAN2007Identifier: /^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$/,
  BICFIDec2014Identifier: /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/,
  CreditorIdentifier: /^[A-Z]{2}[0-9]{2}[A-Za-z0-9]{3}[A-Za-z0-9]{1,28}$/,
};

type OrderedNode = { [name: string]: OrderedNode[] | string } & { ':@'?: Record<string, string> };

/** Every departure of `nodes` (children of an element of type `type`) from the structure above. */
function structureErrors(nodes: OrderedNode[], type: string, path: string): string[] {
  const definition = PAIN_008_001_08[type];
  if (!definition) return [`${path}: no definition for ${type}`];
  const elements = nodes.filter((node) => !('#text' in node));
  if (definition instanceof RegExp) {
    const value = nodes.find((node) => '#text' in node)?.['#text'];
    if (elements.length > 0) return [`${path}: ${type} holds elements`];
    return definition.test(String(value ?? '')) ? [] : [`${path}: ${JSON.stringify(value)} is not a ${type}`];
  }
  const errors: string[] = [];
  let position = 0;
  for (const [name, childType, min, max] of definition) {
    let count = 0;
    while (position < elements.length && Object.keys(elements[position] ?? {})[0] === name) {
      const element = elements[position] as OrderedNode;
      errors.push(...structureErrors(element[name] as OrderedNode[], childType, `${path}/${name}`));
      position += 1;
      count += 1;
    }
    if (count < min || count > max) errors.push(`${path}/${name}: ${count} found, ${min} to ${max} expected`);
  }
  for (const element of elements.slice(position)) {
    errors.push(`${path}/${Object.keys(element)[0]}: unexpected here`);
  }
  if (type === 'FinancialInstitutionIdentification18' && elements.length !== 1) {
    errors.push(`${path}: BICFI or Othr/Id NOTPROVIDED expected`);
  }
  return errors;
}

/** Structure errors of a whole pain.008.001.08 document, namespace and currency attributes included. */
function pain008v08Errors(xml: string): string[] {
  const parsed = ordered.parse(xml) as OrderedNode[];
  const root = parsed.find((node) => 'Document' in node);
  if (!root) return ['no Document root'];
  const errors: string[] = [];
  if (root[':@']?.['@_xmlns'] !== 'urn:iso:std:iso:20022:tech:xsd:pain.008.001.08') {
    errors.push(`Document: namespace ${root[':@']?.['@_xmlns']}`);
  }
  for (const match of xml.matchAll(/<InstdAmt([^>]*)>/g)) {
    if (match[1] !== ' Ccy="EUR"') errors.push(`InstdAmt: attributes ${match[1]}`);
  }
  return [...errors, ...structureErrors(root.Document as OrderedNode[], 'Document', 'Document')];
}

describe('buildPain008 pain.008.001.08 (checked element by element against the EPC guidelines)', () => {
  it('is the default version', () => {
    const xml = buildPain008(collection());
    expect(xml).toContain('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.008.001.08">');
    expect(pain008v08Errors(xml)).toEqual([]);
  });

  it.each([
    ['FRST, RCUR and OOFF on two due dates', mixedTransactions],
    ['amendments', amendmentTransactions],
    ['accented names and a debtor without BIC', accentedTransactions],
  ])('has the structure of the guidelines: %s', (_label, transactions) => {
    const xml = buildPain008(collection({ version: 'pain.008.001.08', transactions }));
    expect(pain008v08Errors(xml)).toEqual([]);
    expectConsistentTotals(xml);
    expect(xml).not.toContain('<BIC>');
    expect(xml).not.toContain('<AdrLine>');
  });

  it('writes BICFI, structured addresses and the amendment block', () => {
    const xml = buildPain008(
      collection({ transactions: [...accentedTransactions, ...amendmentTransactions], messageId: 'M-08' }),
    );
    const batches = batchesOf(xml);
    expect(batches.map((batch) => at(batch, 'PmtTpInf.SeqTp'))).toEqual(['FRST', 'RCUR']);
    const [frst, rcur] = batches;
    expect(at(frst, 'CdtrAgt.FinInstnId.BICFI')).toBe('AGRIFRPPXXX');
    expect(at(frst, 'Cdtr.PstlAdr')).toEqual({
      StrtNm: 'rue de la Paix',
      BldgNb: '12',
      PstCd: '75002',
      TwnNm: 'Paris',
      Ctry: 'FR',
    });
    const [german, swiss] = transactionsOf(rcur);
    expect(at(german, 'Dbtr.PstlAdr')).toEqual({
      StrtNm: 'Grossstrasse',
      BldgNb: '7',
      PstCd: '50667',
      TwnNm: 'Koln',
      Ctry: 'DE',
    });
    expect(at(german, 'DbtrAgt.FinInstnId.BICFI')).toBe('COBADEFFXXX');
    expect(at(swiss, 'DbtrAgt.FinInstnId.Othr.Id')).toBe('NOTPROVIDED');
    const smnda = transactionsOf(frst)[0];
    expect(at(smnda, 'PmtId.EndToEndId')).toBe('E2E-OTHER-BANK');
    expect(at(smnda, 'DrctDbtTx.MndtRltdInf')).toEqual({
      MndtId: 'RUM-3',
      DtOfSgntr: '2024-03-01',
      AmdmntInd: 'true',
      AmdmntInfDtls: { OrgnlDbtrAgt: { FinInstnId: { Othr: { Id: 'SMNDA' } } } },
    });
    expect(at(transactionsOf(rcur)[2], 'DrctDbtTx.MndtRltdInf.AmdmntInd')).toBe('true');
  });

  it('writes AmdmntInd false without amendment', () => {
    const [batch] = batchesOf(buildPain008(collection()));
    expect(at(transactionsOf(batch)[0], 'DrctDbtTx.MndtRltdInf')).toEqual({
      MndtId: 'RUM-000001-20250102',
      DtOfSgntr: '2025-01-02',
      AmdmntInd: 'false',
    });
  });

  it('finds its own mistakes: the structure check rejects a .02 file and a tampered one', () => {
    expect(pain008v08Errors(buildPain008(collection({ version: 'pain.008.001.02' })))).not.toEqual([]);
    const xml = buildPain008(collection());
    expect(pain008v08Errors(xml.replace('<SeqTp>RCUR</SeqTp>', '<SeqTp>LAST</SeqTp>'))).toEqual([
      'Document/CstmrDrctDbtInitn/PmtInf/PmtTpInf/SeqTp: "LAST" is not a SequenceType3Code',
    ]);
  });
});

describe('buildPain008 amounts', () => {
  it('sums cents exactly: 3 × 0.10 € gives 0.30', () => {
    const transactions = ['A', 'B', 'C'].map((id) => transaction({ endToEndId: id, amountCents: 10 }));
    const xml = buildPain008(collection({ transactions }));
    expect(headerOf(xml).CtrlSum).toBe('0.30');
    expect(batchesOf(xml)[0]?.CtrlSum).toBe('0.30');
    expect(xml).toContain('<InstdAmt Ccy="EUR">0.10</InstdAmt>');
  });

  it('writes the largest amount the rulebook allows', () => {
    const xml = buildPain008(collection({ transactions: [transaction({ amountCents: 99_999_999_999 })] }));
    expect(headerOf(xml).CtrlSum).toBe('999999999.99');
  });

  it('builds a file of 10,000 collections', () => {
    const transactions = Array.from({ length: 10_000 }, (_, index) =>
      transaction({
        endToEndId: `E2E-${index}`,
        amountCents: 1 + (index % 5000),
        sequenceType: index % 3 === 0 ? 'FRST' : 'RCUR',
      }),
    );
    const xml = buildPain008(collection({ transactions }));
    const expected = transactions.reduce((sum, item) => sum + item.amountCents, 0);
    const header = expectConsistentTotals(xml);
    expect(header).toMatchObject({ NbOfTxs: '10000', CtrlSum: (expected / 100).toFixed(2) });
  });
});

function thrownBy(build: () => unknown): unknown {
  try {
    build();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
}

describe('buildPain008 validation', () => {
  const base = collection();
  const one = (overrides: Partial<SepaDirectDebitTransaction>) => ({
    transactions: [transaction(overrides)],
  });

  it.each<[string, Partial<SepaDirectDebitCollection>, string]>([
    ['no transactions', { transactions: [] }, 'transactions'],
    [
      'an invalid creditor IBAN',
      { creditor: { ...base.creditor, iban: 'FR7630006000011234567890180' } },
      'creditor.iban',
    ],
    ['an empty creditor id', { creditor: { ...base.creditor, creditorId: ' ' } }, 'creditor.creditorId'],
    [
      'a creditor id with wrong check digits',
      { creditor: { ...base.creditor, creditorId: 'FR12ZZZ123456' } },
      'creditor.creditorId',
    ],
    ['an invalid creditor BIC', { creditor: { ...base.creditor, bic: 'NOTABIC' } }, 'creditor.bic'],
    ['a message id too long', { messageId: 'M'.repeat(36) }, 'messageId'],
    ['a message id outside the SEPA set', { messageId: 'LOT_2026' }, 'messageId'],
    ['an invalid creation date', { createdAt: new Date('nope') }, 'createdAt'],
    [
      'a creditor name without SEPA characters',
      { creditor: { ...base.creditor, name: '😀' } },
      'creditor.name',
    ],
    [
      'a bad country code',
      { creditor: { ...base.creditor, address: { country: 'France', town: 'Paris' } } },
      'creditor.address.country',
    ],
    [
      'a structured address without town',
      { creditor: { ...base.creditor, address: { country: 'FR' } } },
      'creditor.address.town',
    ],
    [
      'an invalid debtor IBAN',
      one({ debtor: { name: 'X', iban: 'FR00 1234' } }),
      'transactions[0].debtor.iban',
    ],
    ['a zero amount', one({ amountCents: 0 }), 'transactions[0].amountCents'],
    ['a negative amount', one({ amountCents: -100 }), 'transactions[0].amountCents'],
    ['an amount in euros, not cents', one({ amountCents: 12.5 }), 'transactions[0].amountCents'],
    [
      'an amount above the rulebook maximum',
      one({ amountCents: 100_000_000_000 }),
      'transactions[0].amountCents',
    ],
    ['a malformed due date', one({ dueDate: '05/06/2026' }), 'transactions[0].dueDate'],
    ['an impossible due date', one({ dueDate: '2026-02-30' }), 'transactions[0].dueDate'],
    ['an unknown sequence type', one({ sequenceType: 'LAST' as 'RCUR' }), 'transactions[0].sequenceType'],
    ['an end-to-end id too long', one({ endToEndId: 'E'.repeat(36) }), 'transactions[0].endToEndId'],
    ['an end-to-end id starting with /', one({ endToEndId: '/E2E' }), 'transactions[0].endToEndId'],
    [
      'a mandate reference too long',
      one({ mandate: { rum: 'R'.repeat(36), signedOn: '2025-01-02' } }),
      'transactions[0].mandate.rum',
    ],
    [
      'a malformed signature date',
      one({ mandate: { rum: 'R1', signedOn: '2025-1-2' } }),
      'transactions[0].mandate.signedOn',
    ],
    [
      'a mandate signed after the due date',
      one({ mandate: { rum: 'R1', signedOn: '2026-07-01' } }),
      'transactions[0].mandate.signedOn',
    ],
    [
      'an empty amendment',
      one({ mandate: { rum: 'R1', signedOn: '2025-01-02', amendment: {} } }),
      'transactions[0].mandate.amendment',
    ],
    [
      'an invalid original IBAN',
      one({ mandate: { rum: 'R1', signedOn: '2025-01-02', amendment: { originalIban: 'FR76' } } }),
      'transactions[0].mandate.amendment.originalIban',
    ],
    [
      'a change of bank on a RCUR collection',
      one({ mandate: { rum: 'R1', signedOn: '2025-01-02', amendment: { originalIban: IBAN_BANK_C } } }),
      'transactions[0].mandate.amendment.originalIban',
    ],
    [
      'an invalid original creditor id',
      one({ mandate: { rum: 'R1', signedOn: '2025-01-02', amendment: { originalCreditorId: 'XX' } } }),
      'transactions[0].mandate.amendment.originalCreditorId',
    ],
    [
      'a repeated end-to-end id',
      { transactions: [transaction(), transaction({ sequenceType: 'FRST' })] },
      'transactions[1].endToEndId',
    ],
  ])('refuses %s', (_label, overrides, field) => {
    const error = thrownBy(() => buildPain008({ ...base, ...overrides }));
    expect(error).toBeInstanceOf(Pain008Error);
    expect(error).toMatchObject({ field, code: 'direct_debit.invalid_collection', status: 400 });
  });

  it('accepts IBANs with spaces and lower case, and a lower-case BIC', () => {
    const xml = buildPain008(
      collection(one({ debtor: { name: 'X', iban: 'fr76 3000 4008 2000 0123 4567 864', bic: 'bnpafrpp' } })),
    );
    const [batch] = batchesOf(xml);
    const [item] = transactionsOf(batch);
    expect(at(item, 'DbtrAcct.Id.IBAN')).toBe(IBAN_BANK_B);
    expect(at(item, 'DbtrAgt.FinInstnId.BICFI')).toBe('BNPAFRPP');
  });

  it('cuts a long message id to fit the payment information id', () => {
    const messageId = 'M'.repeat(35);
    const [batch] = batchesOf(buildPain008(collection({ messageId })));
    expect(batch?.PmtInfId).toBe(`${'M'.repeat(33)}-1`);
  });
});
