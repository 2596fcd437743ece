import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { camt054Returns } from '../../../test/fixtures/iso20022/return-files.ts';
import { readIso20022Fixture, schemaErrors } from '../../../test/fixtures/iso20022/schemas.ts';
import { buildPain008 } from './pain008.ts';
import { DirectDebitReturnFileError, isImmediateSuspension, parseDirectDebitReturns } from './returns.ts';

/** A camt.054.001.08 notification of one returned direct debit with reason `code`. */
const camt054WithOneReturn = (code: string, endToEndId = 'E2E-42', amount = '19.90') =>
  camt054Returns([{ endToEndId, code, amount }]);

function thrownBy(parse: () => unknown): unknown {
  try {
    parse();
  } catch (error) {
    return error;
  }
  throw new Error('nothing thrown');
}

describe('parseDirectDebitReturns, camt.054', () => {
  it('the camt.054.001.08 sample is valid against the ISO 20022 schema', async () => {
    expect(
      await schemaErrors(readIso20022Fixture('camt.054.001.08-returns.xml'), 'camt.054.001.08.xsd'),
    ).toEqual([]);
  });

  it('reads every return of a file, skipping credits, fees without return information and pending entries', () => {
    expect(parseDirectDebitReturns(readIso20022Fixture('camt.054.001.08-returns.xml'))).toEqual([
      { endToEndId: 'E2E-0001', status: 'returned', reasonCode: 'AC04', amountCents: 2500 },
      { endToEndId: 'E2E-0002', status: 'returned', reasonCode: 'MD01', amountCents: 1000 },
      { endToEndId: 'E2E-0003', status: 'returned', reasonCode: 'AM04', amountCents: 1250 },
      { endToEndId: 'E2E-0004', status: 'returned', reasonCode: 'MS02', amountCents: 700 },
    ]);
  });

  it.each([
    ['AC04', 'account closed'],
    ['AC06', 'account blocked'],
    ['AM04', 'insufficient funds'],
    ['MD01', 'no valid mandate'],
    ['MD06', 'refund requested by the debtor'],
    ['MD07', 'debtor deceased'],
    ['MS02', 'refused by the debtor'],
    ['MS03', 'reason not specified'],
    ['SL01', 'specific service offered by the debtor agent'],
  ])('reads the reason code %s (%s) of a schema-valid camt.054.001.08', async (code) => {
    const xml = camt054WithOneReturn(code);
    expect(await schemaErrors(xml, 'camt.054.001.08.xsd')).toEqual([]);
    expect(parseDirectDebitReturns(xml)).toEqual([
      { endToEndId: 'E2E-42', status: 'returned', reasonCode: code, amountCents: 1990 },
    ]);
  });

  it('reads a namespace-prefixed camt.054.001.02, keeping ids as text and the amount of AmtDtls', () => {
    expect(parseDirectDebitReturns(readIso20022Fixture('camt.054.001.02-return.xml'))).toEqual([
      { endToEndId: '00123', status: 'returned', reasonCode: 'MD06', amountCents: 1500 },
    ]);
  });

  it.each(['02', '03', '04', '05', '06', '07', '08'])(
    'recognises camt.054.001.%s by its namespace',
    (version) => {
      const xml = camt054WithOneReturn('AC04').replace('camt.054.001.08', `camt.054.001.${version}`);
      expect(parseDirectDebitReturns(xml)).toHaveLength(1);
    },
  );

  it('leaves the amount out when it is not in euros or finer than cents', async () => {
    const inFrancs = camt054WithOneReturn('AM04').replaceAll('Ccy="EUR"', 'Ccy="CHF"');
    expect(await schemaErrors(inFrancs, 'camt.054.001.08.xsd')).toEqual([]);
    expect(parseDirectDebitReturns(inFrancs)).toEqual([
      { endToEndId: 'E2E-42', status: 'returned', reasonCode: 'AM04' },
    ]);
    expect(parseDirectDebitReturns(camt054WithOneReturn('AM04', 'E2E-42', '19.905'))[0]).not.toHaveProperty(
      'amountCents',
    );
    expect(parseDirectDebitReturns(camt054WithOneReturn('AM04', 'E2E-42', '19.90000'))[0]?.amountCents).toBe(
      1990,
    );
  });

  it('decodes the predefined XML entities of ids, and reads bytes in the declared encoding', () => {
    expect(parseDirectDebitReturns(camt054WithOneReturn('AC04', 'A&amp;B'))[0]?.endToEndId).toBe('A&B');
    const latin1 = camt054WithOneReturn('AC04', 'Réf-1').replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    expect(parseDirectDebitReturns(iconv.encode(latin1, 'latin1'))[0]?.endToEndId).toBe('Réf-1');
    expect(parseDirectDebitReturns(Buffer.from(camt054WithOneReturn('AC04', 'Réf-2')))[0]?.endToEndId).toBe(
      'Réf-2',
    );
  });
});

describe('parseDirectDebitReturns, pain.002', () => {
  it.each(['pain.002.001.03', 'pain.002.001.10'])('reads the rejections of a %s status report', (version) => {
    expect(parseDirectDebitReturns(readIso20022Fixture(`${version}-rejects.xml`))).toEqual([
      {
        endToEndId: 'E2E-0011',
        status: 'rejected',
        reasonCode: 'AC06',
        amountCents: 2500,
        originalMessageId: 'COLL-2026-06',
      },
      {
        endToEndId: 'E2E-0013',
        status: 'rejected',
        reasonCode: 'MD07',
        amountCents: 830,
        originalMessageId: 'COLL-2026-06',
      },
    ]);
  });

  it('refuses a report rejecting the whole file, with its reason code', () => {
    const xml = `<?xml version="1.0"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.002.001.03">
  <CstmrPmtStsRpt>
    <GrpHdr><MsgId>STS-2</MsgId><CreDtTm>2026-06-03T07:15:00</CreDtTm></GrpHdr>
    <OrgnlGrpInfAndSts>
      <OrgnlMsgId>COLL-2026-06</OrgnlMsgId>
      <OrgnlMsgNmId>pain.008.001.02</OrgnlMsgNmId>
      <GrpSts>RJCT</GrpSts>
      <StsRsnInf><Rsn><Cd>FF01</Cd></Rsn></StsRsnInf>
    </OrgnlGrpInfAndSts>
  </CstmrPmtStsRpt>
</Document>`;
    expect(thrownBy(() => parseDirectDebitReturns(xml))).toMatchObject({
      reason: 'group_rejected',
      reasonCode: 'FF01',
      message: 'the bank rejected the whole file COLL-2026-06 (FF01)',
    });
  });
});

describe('parseDirectDebitReturns, refused files', () => {
  const camt = camt054WithOneReturn('AC04');

  it.each<[string, string | Uint8Array, DirectDebitReturnFileError['reason'], RegExp]>([
    ['text that is not XML', 'EndToEndId;Reason\nE2E-1;AC04', 'not_xml', /not well-formed/],
    ['truncated XML', camt.slice(0, 400), 'not_xml', /not well-formed/],
    [
      'a DOCTYPE with entities',
      `<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>${camt.slice(camt.indexOf('<Document'))}`,
      'doctype',
      /DOCTYPE/,
    ],
    [
      'an unsupported message (a pain.008 collection file)',
      buildPain008({
        messageId: 'M1',
        createdAt: new Date('2026-05-21T08:00:00Z'),
        creditor: { name: 'A', iban: 'FR7630006000011234567890189', creditorId: 'FR72ZZZ123456' },
        transactions: [
          {
            endToEndId: 'E1',
            amountCents: 100,
            dueDate: '2026-06-05',
            sequenceType: 'RCUR',
            mandate: { rum: 'R1', signedOn: '2025-01-02' },
            debtor: { name: 'B', iban: 'DE89370400440532013000' },
            remittance: '',
          },
        ],
      }),
      'unknown_message',
      /pain\.008\.001\.08/,
    ],
    [
      'a camt.053 statement',
      camt.replace('camt.054.001.08', 'camt.053.001.08'),
      'unknown_message',
      /camt\.053/,
    ],
    ['a root other than Document', '<?xml version="1.0"?><Other/>', 'unknown_message', /not Document/],
    ['no namespace', camt.replace(/ xmlns="[^"]*"/, ''), 'unknown_message', /no ISO 20022 namespace/],
    [
      'a camt.054 without its notification element',
      camt.replaceAll('BkToCstmrDbtCdtNtfctn', 'BkToCstmrStmt'),
      'malformed',
      /BkToCstmrDbtCdtNtfctn/,
    ],
    [
      'a return without EndToEndId',
      camt.replace('<Refs><EndToEndId>E2E-42</EndToEndId></Refs>', ''),
      'malformed',
      /EndToEndId/,
    ],
    ['a return without reason', camt.replace('<Rsn><Cd>AC04</Cd></Rsn>', ''), 'malformed', /RtrInf\/Rsn\/Cd/],
    [
      'a rejection without OrgnlEndToEndId',
      readIso20022Fixture('pain.002.001.03-rejects.xml').replace(
        '<OrgnlEndToEndId>E2E-0011</OrgnlEndToEndId>',
        '',
      ),
      'malformed',
      /OrgnlEndToEndId/,
    ],
  ])('refuses %s', (_label, file, reason, message) => {
    const error = thrownBy(() => parseDirectDebitReturns(file));
    expect(error).toBeInstanceOf(DirectDebitReturnFileError);
    expect(error).toMatchObject({ reason, code: 'direct_debit.invalid_return_file', status: 400 });
    expect((error as Error).message).toMatch(message);
  });
});

describe('isImmediateSuspension', () => {
  it.each([
    ['MD01', true],
    ['AC04', true],
    ['AC06', true],
    ['MD07', true],
    ['AM04', false],
    ['MS02', false],
    ['MD06', false],
    ['ac04', false],
  ])('%s -> %s', (code, expected) => {
    expect(isImmediateSuspension(code)).toBe(expected);
  });
});
