/**
 * Bank statement import and review queue (docs/decisions/033; ISO 20022 camt.053): credits matched by
 * structured reference, invoice number and known IBAN, the rest reviewed, once only.
 */
import type { StatementEntryList, StatementImport } from '@back-office/contract/bank-statements';
import { sql } from 'drizzle-orm';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { schemaErrors } from '../../../test/fixtures/iso20022/schemas.ts';
import { camt053Statement, type StatementLine } from '../../../test/fixtures/iso20022/statement-files.ts';
import { multipart } from '../../../test/imports.ts';
import { queryRows } from '../../db/client.ts';
import { invoiceNumbersIn } from './bank-statements.service.ts';

const ctx = useTestApp();

let token = '';
async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  token ||= (await login(ctx)).id_token;
  return ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

async function importStatement(bytes: Buffer, name = 'statement.xml') {
  token ||= (await login(ctx)).id_token;
  const body = multipart({}, { name, bytes });
  return ctx.app.inject({
    method: 'POST',
    url: '/api/bank-statements',
    headers: { ...bearer(token), 'content-type': body.contentType },
    payload: body.payload,
  });
}

async function imported(xml: string | Buffer): Promise<StatementImport> {
  const response = await importStatement(typeof xml === 'string' ? Buffer.from(xml, 'utf8') : xml);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<StatementImport>();
}

let saleRef = 1000;
/**
 * A subscriber's issued invoice of `total` in `currency` (ISO), with its payment reference, written
 * straight into the tables: what the matching reads.
 */
async function invoice(
  total: string,
  { currency = 'CHF', reference = null as string | null, subscriberId = 0, iban = '' } = {},
) {
  saleRef += 1;
  const buyerId = subscriberId || ((await insertSubscribers(ctx, [buildSubscriber({ iban })]))[0]?.id ?? 0);
  const [row] = await queryRows<{ id: number }>(
    ctx.database.db,
    sql`insert into sales (ref, subscriber_id, full_name, currency_id, swiss_sale, discount_percentage,
        sub_total, discount_amount, donation, delivery_charge, total, include_thanks, include_payment_terms,
        payment_term_days, added_by, invoice_issued_at, payment_reference)
      values (${saleRef}, ${buyerId}, 'Pia Muster', (select id from currencies where iso_code = ${currency}),
        ${currency === 'CHF'}, 0, ${total}, 0, 0, 0, ${total}, false, false, 30, 'Test', now(), ${reference})
      returning id`,
  );
  await ctx.database.db.execute(
    sql`insert into sale_counter (id, last_ref) values (1, ${saleRef})
      on conflict (id) do update set last_ref = greatest(sale_counter.last_ref, excluded.last_ref)`,
  );
  return { id: row?.id ?? 0, ref: saleRef, subscriberId: buyerId };
}

const paid = async (saleId: number) =>
  (
    await queryRows<{ paid: string }>(
      ctx.database.db,
      sql`select paid_amount::text as paid from sales where id = ${saleId}`,
    )
  )[0]?.paid;

const queue = async (status = 'unmatched') =>
  (await api('GET', `/api/bank-statements/entries?status=${status}`)).json<StatementEntryList>();

describe('bank statements', () => {
  it('reads invoice numbers quoted in free text', () => {
    expect(invoiceNumbersIn('Facture 123 et facture n° 45, Fact. 6; Invoice #7, Rechnung Nr. 8')).toEqual([
      123, 45, 6, 7, 8,
    ]);
    expect(invoiceNumbersIn('Don pour 2026, merci')).toEqual([]);
  });

  it('matches credits by reference, invoice number and known IBAN, lists the rest, and adds nothing the second time', async () => {
    token = '';
    const byQrr = await invoice('150.00', { reference: '000000000000000000000010013' });
    const byScor = await invoice('100.00', { currency: 'EUR', reference: 'RF451002' });
    const byText = await invoice('45.00');
    const knownIban = 'CH9300762011623852957';
    const byIban = await invoice('60.00', { iban: knownIban });
    const lines: StatementLine[] = [
      { bankRef: 'B-1', amount: '150.00', reference: { type: 'QRR', value: '000000000000000000000010013' } },
      { bankRef: 'B-2', amount: '40.00', currency: 'EUR', reference: { type: 'SCOR', value: 'RF451002' } },
      { bankRef: 'B-3', amount: '45.00', text: `Facture n° ${byText.ref} merci` },
      { bankRef: 'B-4', amount: '60.00', debtorName: 'Pia Muster', debtorIban: knownIban },
      {
        bankRef: 'B-5',
        amount: '25.00',
        debtorName: 'Inconnu',
        debtorIban: 'CH5604835012345678009',
        text: 'Don',
      },
      // More than the invoice asks: left for a person to decide.
      { bankRef: 'B-6', amount: '999.00', text: `Facture ${byText.ref}` },
      { bankRef: 'B-7', amount: '12.00', direction: 'DBIT', text: 'Frais bancaires' },
      { bankRef: 'B-8', amount: '30.00', returned: 'AC04', text: 'Retour' },
    ];
    const xml = camt053Statement(lines);
    expect(await schemaErrors(xml, 'camt.053.001.08.xsd')).toEqual([]);

    expect(await imported(xml)).toEqual({ entries: 8, matched: 4, unmatched: 2, duplicates: 0, listed: 2 });
    expect(await paid(byQrr.id)).toBe('150.00');
    expect(await paid(byScor.id)).toBe('40.00');
    expect(await paid(byText.id)).toBe('45.00');
    expect(await paid(byIban.id)).toBe('60.00');
    const sale = (await api('GET', `/api/sales/${byScor.id}`)).json<{
      paymentStatus: string;
      payments: Array<{ source: string; entryRef: string; date: string; amount: number }>;
    }>();
    expect(sale.paymentStatus).toBe('partiallyPaid');
    expect(sale.payments).toEqual([
      expect.objectContaining({ source: 'statement', entryRef: 'B-2', date: '2026-06-12', amount: 40 }),
    ]);
    const unmatched = await queue();
    expect(unmatched.count).toBe(2);
    expect(unmatched.models.map((entry) => [entry.entryRef, entry.amount, entry.currency])).toEqual([
      ['B-5', 25, 'CHF'],
      ['B-6', 999, 'CHF'],
    ]);
    expect(unmatched.models[0]).toMatchObject({ debtorName: 'Inconnu', debtorIban: 'CH5604835012345678009' });
    expect((await queue('listed')).models.map((entry) => entry.entryRef)).toEqual(['B-7', 'B-8']);
    expect((await queue('matched')).models.map((entry) => [entry.entryRef, entry.saleRef])).toEqual([
      ['B-1', byQrr.ref],
      ['B-2', byScor.ref],
      ['B-3', byText.ref],
      ['B-4', byIban.ref],
    ]);

    // The same file again, alone or in a ZIP: every entry a duplicate, nothing paid twice.
    expect(await imported(xml)).toEqual({ entries: 8, matched: 0, unmatched: 0, duplicates: 8, listed: 0 });
    const zip = new JSZip();
    zip.file('a.xml', xml);
    zip.file('b.xml', camt053Statement([{ bankRef: 'B-9', amount: '5.00', text: 'Merci' }]));
    const zipped = await zip.generateAsync({ type: 'nodebuffer' });
    expect(await imported(zipped)).toEqual({
      entries: 9,
      matched: 0,
      unmatched: 1,
      duplicates: 8,
      listed: 0,
    });
    expect(await paid(byQrr.id)).toBe('150.00');
  });

  it('assigns an unmatched credit to an invoice or as a donation, or dismisses it, once', async () => {
    token = '';
    const owner = (
      await insertSubscribers(ctx, [buildSubscriber({ iban: 'CH56 0483 5012 3456 7800 9' })])
    )[0];
    const open = await invoice('80.00');
    const inEuros = await invoice('80.00', { currency: 'EUR' });
    await imported(
      camt053Statement([
        { bankRef: 'R-1', amount: '30.00', text: 'Acompte' },
        {
          bankRef: 'R-2',
          amount: '25.00',
          debtorName: 'Jean Dupont',
          debtorIban: 'CH5604835012345678009',
          text: 'Soutien',
        },
        { bankRef: 'R-3', amount: '9.90', text: 'Remboursement fournisseur' },
        { bankRef: 'R-4', amount: '5.00', text: 'Sans IBAN' },
      ]),
    );
    const [toSale, toDonation, toDismiss, orphan] = (await queue()).models;
    const assign = (id: number | undefined, body: object) =>
      api('POST', `/api/bank-statements/entries/${id}/assign`, body);

    const wrongCurrency = await assign(toSale?.id, { as: 'payment', saleId: inEuros.id });
    expect(wrongCurrency.statusCode).toBe(409);
    expect(wrongCurrency.json()).toMatchObject({
      code: 'bank_statements.cannot_assign',
      errors: [{ path: 'saleId', message: 'This entry is in CHF; the sale is in EUR.' }],
    });
    const payment = await assign(toSale?.id, { as: 'payment', saleId: open.id });
    expect(payment.statusCode, payment.body).toBe(200);
    expect(payment.json()).toMatchObject({ status: 'assigned', saleId: open.id, saleRef: open.ref });
    expect(await paid(open.id)).toBe('30.00');
    expect((await assign(toSale?.id, { dismiss: 'Again' })).json()).toMatchObject({
      code: 'bank_statements.decided',
    });

    // The donor is the subscriber whose IBAN the debtor's is.
    const donation = await assign(toDonation?.id, { as: 'donation' });
    expect(donation.statusCode, donation.body).toBe(200);
    expect(donation.json()).toMatchObject({ status: 'assigned', subscriberId: owner?.id });
    const [gift] = await queryRows<{ amount: string; donation_date: string; notes: string; iso: string }>(
      ctx.database.db,
      sql`select d.amount::text as amount, to_char(d.donation_date, 'YYYY-MM-DD') as donation_date, d.notes,
          c.iso_code as iso from donations d join currencies c on c.id = d.currency_id
        where d.subscriber_id = ${owner?.id ?? 0}`,
    );
    expect(gift).toEqual({
      amount: '25.00',
      donation_date: '2026-06-12',
      notes: 'Virement Jean Dupont Soutien',
      iso: 'CHF',
    });

    const noDonor = await assign(orphan?.id, { as: 'donation' });
    expect(noDonor.statusCode).toBe(409);
    expect(noDonor.json()).toMatchObject({ errors: [{ path: 'subscriberId' }] });

    const dismissed = await assign(toDismiss?.id, { dismiss: 'Refund from a supplier' });
    expect(dismissed.json()).toMatchObject({ status: 'dismissed', dismissReason: 'Refund from a supplier' });
    expect((await queue()).models.map((entry) => entry.entryRef)).toEqual(['R-4']);
    expect((await assign(orphan?.id, {})).statusCode).toBe(400);
    expect((await assign(999_999, { dismiss: 'x' })).statusCode).toBe(404);
  });

  it('refuses what is not a statement with a 400 naming the problem', async () => {
    token = '';
    const notXml = await importStatement(Buffer.from('hello'));
    expect(notXml.statusCode).toBe(400);
    expect(notXml.json()).toMatchObject({ code: 'bank_statements.invalid_file' });
    const pain = await importStatement(
      Buffer.from('<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"/>'),
    );
    expect(pain.statusCode).toBe(400);
    expect((await queue()).count).toBe(0);
  });
});
