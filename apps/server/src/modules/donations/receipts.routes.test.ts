import { describe, expect, it } from 'vitest';
import { bearer, login, useTestApp } from '../../../test/context.ts';
import { buildSubscriber, insertSubscribers } from '../../../test/factories.ts';
import { pdfPages } from '../../../test/pdf-text.ts';
import { startSmtpSink } from '../../../test/smtp-sink.ts';

const ctx = useTestApp();

let token = '';
async function api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  token ||= (await login(ctx)).id_token;
  return ctx.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
}

async function donate(subid: number, amount: number, donationDate: string) {
  return (await api('POST', '/api/donations', { subid, amount, donationDate })).json() as { id: number };
}

async function seed() {
  token = '';
  await api('PUT', '/api/settings', {
    organisationName: 'Les Amis du Léman',
    address: '12 rue du Lac\n74200 Thonon-les-Bains',
    emailSenderName: '',
    emailSenderAddress: '',
    sirenOrRna: 'W741000000',
    sepaCreditorId: '',
    signatoryName: 'Claire Dubois',
    signatoryTitle: 'Trésorière',
    organisationPurpose: 'Protection du lac',
    receiptStatement: 'Association d’intérêt général',
    invoiceFooter: '',
    paymentTermsText: '',
    logo: null,
  });
  const [french, swiss] = await insertSubscribers(ctx, [
    buildSubscriber({
      title: 'Mme',
      firstName: 'Zoé',
      lastName: 'Martin',
      address1: '3 place Bellecour',
      postcode: '69002',
      town: 'Lyon',
      paymentMethodId: 1,
    }),
    buildSubscriber({
      title: 'M.',
      firstName: 'Hans',
      lastName: 'Müller',
      currencyId: 2,
      countryId: 2,
      email: '',
    }),
  ]);
  if (!french || !swiss) throw new Error('no donors');
  return { french, swiss };
}

describe('tax receipts', () => {
  it('renders a single receipt with every mention, and gives the same number when downloaded again', async () => {
    const { french } = await seed();
    const gift = await donate(french.id, 125.5, '2026-03-14');
    const response = await api('GET', `/api/donations/receipt/${gift.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain(`filename="donation-${gift.id}-receipt.pdf"`);
    const [page] = await pdfPages(response.rawPayload);
    for (const text of [
      'Reçu n° 1',
      'Cerfa n° 11580',
      'Les Amis du Léman',
      'W741000000',
      'Protection du lac',
      'Mme Zoé MARTIN',
      '3 place Bellecour',
      '125,50 €',
      'cent vingt-cinq euros et cinquante centimes',
      'Date du versement : 14 mars 2026',
      '200 du CGI',
      '978 du CGI',
      'Déclaration de don manuel',
      'Numéraire',
      'Fait à Thonon-les-Bains',
      'Claire Dubois',
    ]) {
      expect(page, text).toContain(text);
    }
    const again = await pdfPages((await api('GET', `/api/donations/receipt/${gift.id}`)).rawPayload);
    expect(again[0]).toContain('Reçu n° 1');
    const list = (await api('GET', `/api/donations?id=${french.id}`)).json();
    expect(list.models[0].receiptNumber).toBe(1);
    // A receipted donation is a tax document: it cannot be deleted any more.
    expect((await api('DELETE', `/api/donations/${gift.id}`)).statusCode).toBe(409);
  });

  it('gives a donor in Switzerland an annual attestation de dons in francs with the total and each gift of the year', async () => {
    const { swiss } = await seed();
    await donate(swiss.id, 50, '2025-02-01');
    await donate(swiss.id, 30.25, '2025-09-15');
    await donate(swiss.id, 999, '2026-01-05');
    const response = await api('GET', `/api/donations/receipt/${swiss.id}/2025`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain('filename="muller-donations-receipt-2025.pdf"');
    const [page] = await pdfPages(response.rawPayload);
    expect(page).toContain('80,25 CHF');
    expect(page).toContain('quatre-vingts francs suisses et vingt-cinq centimes');
    expect(page).toContain('Attestation de dons 2025');
    expect(page).toContain('du 1er janvier au 31 décembre 2025');
    expect(page).toContain('sans contrepartie');
    expect(page).not.toContain('Cerfa');
    expect(page).toContain('1er février 2025');
    expect(page).toContain('15 septembre 2025');
    expect(page).not.toContain('999');
    const again = await pdfPages((await api('GET', `/api/donations/receipt/${swiss.id}/2025`)).rawPayload);
    expect(again).toHaveLength(1);
    expect(again[0]).toContain('Attestation n° 1');
    expect((await api('GET', `/api/donations/receipt/${swiss.id}/2024`)).statusCode).toBe(404);
    expect((await api('GET', `/api/donations/receipt/${swiss.id}/12`)).statusCode).toBe(400);
  });

  it('is made at the town of the organisation’s structured address once it is set', async () => {
    const { french } = await seed();
    const settings = (await api('GET', '/api/settings')).json();
    expect(
      (
        await api('PUT', '/api/settings', {
          ...settings,
          addressTown: 'Évian-les-Bains',
          addressPostcode: '74500',
        })
      ).statusCode,
    ).toBe(200);
    const gift = await donate(french.id, 20, '2026-02-01');
    const [page] = await pdfPages((await api('GET', `/api/donations/receipt/${gift.id}`)).rawPayload);
    expect(page).toContain('Fait à Évian-les-Bains, le');
    expect(page).not.toContain('Fait à Thonon');
  });

  it('allocates numbers without gap or duplicate under 20 concurrent requests', async () => {
    const { french } = await seed();
    const gifts = [];
    for (let index = 0; index < 20; index += 1) gifts.push(await donate(french.id, 10 + index, '2026-01-02'));
    const responses = await Promise.all(
      [...gifts, ...gifts.slice(0, 5)].map((gift) => api('GET', `/api/donations/receipt/${gift.id}`)),
    );
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    const list = (await api('GET', `/api/donations?id=${french.id}&listlength=100`)).json();
    const numbers = list.models
      .map((model: { receiptNumber: number }) => model.receiptNumber)
      .sort((a: number, b: number) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));
  });

  it('emails a receipt as a PDF attachment through the outbox to an SMTP server and writes the history', async () => {
    const { french, swiss } = await seed();
    const gift = await donate(french.id, 40, '2026-02-02');
    const response = await api('GET', `/api/donations/email/${gift.id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ queued: 1 });
    const sink = await startSmtpSink();
    try {
      expect(await ctx.workerFor(sink.transport).runOnce()).toBe(1);
      expect(sink.received.map((message) => message.to)).toEqual([[french.email]]);
      const mail = await sink.parse(0);
      expect(mail.subject).toBe('Reçu fiscal n° 1');
      // French by default, as text and as HTML.
      expect(mail.text).toContain('Veuillez trouver ci-joint le reçu fiscal n° 1 de votre don.');
      expect(mail.html).toContain('Veuillez trouver ci-joint le reçu fiscal n° 1 de votre don.');
      expect(mail.attachments).toHaveLength(1);
      const [attachment] = mail.attachments;
      expect(attachment?.filename).toBe(`donation-${gift.id}-receipt.pdf`);
      expect(attachment?.contentType).toBe('application/pdf');
      const [page] = await pdfPages(attachment?.content ?? Buffer.alloc(0));
      expect(page).toContain('Reçu n° 1');
      expect(page).toContain('quarante euros');
      expect(page).toContain('Mme Zoé MARTIN');
    } finally {
      await sink.close();
    }
    const [latest] = (await api('GET', `/api/subscribers/${french.id}/history`)).json();
    expect(latest.description).toBe(`Reçu fiscal n° 1 emailed to ${french.email}.`);

    await donate(swiss.id, 10, '2026-02-02');
    const noEmail = await api('GET', `/api/donations/annualemail/${swiss.id}/2026`);
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().code).toBe('donations.donor_without_email');
  });

  it('emails the annual receipt, saying how many receipts were issued now and before', async () => {
    const { french } = await seed();
    await donate(french.id, 15, '2026-04-01');
    const first = await api('GET', `/api/donations/annualemail/${french.id}/2026`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ queued: 1, issued: 1, alreadyIssued: 0, emailedTo: french.email });
    await ctx.worker.runOnce();
    expect(ctx.transport.sent[0]?.subject).toBe('Reçu fiscal 2026');
    expect(ctx.transport.sent[0]?.attachments[0]?.filename).toBe('martin-donations-receipt-2026.pdf');
    const again = await api('GET', `/api/donations/annualemail/${french.id}/2026`);
    expect(again.json()).toEqual({ queued: 1, issued: 0, alreadyIssued: 1, emailedTo: french.email });
  });

  it('writes the receipt emails from the templates of the settings', async () => {
    const { french } = await seed();
    const settings = (await api('GET', '/api/settings')).json();
    const saved = await api('PUT', '/api/settings', {
      ...settings,
      organisationName: 'Les Amis',
      annualReceiptEmailSubject: 'Vos dons {year} à {organisationName}',
      annualReceiptEmailText:
        'Cher {firstName} <{lastName}>,\n\nMerci pour {year} : https://amis.example/dons',
    });
    expect(saved.statusCode).toBe(200);
    await donate(french.id, 15, '2026-04-01');
    await api('GET', `/api/donations/annualemail/${french.id}/2026`);
    await ctx.worker.runOnce();
    const [mail] = ctx.transport.sent;
    expect(mail?.subject).toBe('Vos dons 2026 à Les Amis');
    expect(mail?.textBody).toBe('Cher Zoé <Martin>,\n\nMerci pour 2026 : https://amis.example/dons');
    expect(mail?.htmlBody).toContain('<p style="margin: 0 0 1em;">Cher Zoé &lt;Martin&gt;,</p>');
    expect(mail?.htmlBody).toContain('<a href="https://amis.example/dons">https://amis.example/dons</a>');
  });

  it('answers 404 for an unknown donation and 401 without a token', async () => {
    await seed();
    expect((await api('GET', '/api/donations/receipt/9999')).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: '/api/donations/receipt/1' })).statusCode).toBe(401);
  });
});
