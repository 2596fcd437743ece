import type { ReceiptChainCheck, ReceiptRegister, RegisteredReceipt } from '@back-office/contract/receipts';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import { composeEmail } from '../../lib/email-html.ts';
import { formatAmount } from '../../lib/money.ts';
import { renderPdf } from '../../lib/pdf/pdf-renderer.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import type { ExchangeRatesService } from '../exchange-rates/exchange-rates.service.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import type { EffectiveSettings, SettingsService } from '../settings/settings.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import {
  createDonationNotFoundError,
  createDonorWithoutEmailError,
  createNoDonationsForYearError,
  createReceiptCancelledError,
  createReceiptCurrencyError,
  createReceiptNotFoundError,
} from './donations.errors.ts';
import type { DonationRow } from './donations.table.ts';
import { GENESIS_HASH, receiptHash } from './receipt-chain.ts';
import { DOCUMENT_CURRENCY, documentForResidence, receiptLines } from './receipt-conversion.ts';
import { frenchDateOf, receiptsDocument } from './receipt-document.ts';
import type {
  ReceiptDocumentData,
  ReceiptRegisterFilter,
  ReceiptRow,
  ReceiptsRepository,
} from './receipts.repository.ts';

/** A rendered receipt file: `donation-{id}-receipt.pdf` or `{lastname}-donations-receipt-{year}.pdf`. */
export type ReceiptFile = { filename: string; pdf: Buffer; data: ReceiptDocumentData[] };

const safeFileName = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase() || 'donor';

/** What the public check of a receipt says (amount formatted, "40,00 €"; dates in French). */
export type PublicReceiptCheck =
  | { status: 'unknown' }
  | {
      status: 'valid' | 'cancelled';
      number: number;
      organisationName: string;
      year: number;
      amount: string;
      donorInitials: string;
      cancelledOn: string | undefined;
      replacedBy: number | undefined;
    };

/** Hex digits of a receipt's hash its public link carries: enough that a link cannot be guessed. */
export const VERIFY_HASH_DIGITS = 16;

/** Receipts the export reads per statement. */
const REGISTER_BATCH = 1000;

/** A register row as the contract gives it: amounts in units, dates ISO 8601, absent optionals left out. */
function toRegistered(
  row: Awaited<ReturnType<ReceiptsRepository['register']>>['rows'][number],
): RegisteredReceipt {
  return {
    number: row.number,
    issuedAt: new Date(row.issuedAt).toISOString(),
    subscriberId: row.subscriberId,
    subscriberName: [row.title, row.firstName, row.lastName].filter(Boolean).join(' '),
    amount: Number(row.total),
    currency: row.currency,
    status: row.status,
    ...(row.cancelReason === null ? {} : { cancelReason: row.cancelReason }),
    ...(row.replacesNumber === null ? {} : { replaces: row.replacesNumber }),
    ...(row.replacedBy === null ? {} : { replacedBy: row.replacedBy }),
    hash: row.hash ?? '',
  };
}

/**
 * French tax receipts (docs/decisions/005): numbers allocated once, gapless, inside the issuing transaction,
 * kept with the donations they cover, so downloading again gives the same number.
 */
export function createReceiptsService({
  db,
  clock,
  repository,
  mailRepository,
  settingsService,
  subscribersService,
  exchangeRatesService,
  onMailQueued,
  publicUrl,
}: {
  db: Database;
  clock: Clock;
  /** The address donors reach the application at (`PUBLIC_URL`): each receipt's QR code links there. */
  publicUrl: string;
  repository: ReceiptsRepository;
  mailRepository: MailRepository;
  settingsService: SettingsService;
  subscribersService: SubscribersService;
  /** The rates gifts in another currency than the receipt's are converted at (docs/decisions/021). */
  exchangeRatesService: ExchangeRatesService;
  onMailQueued: () => void;
}) {
  /**
   * What a receipt of `gifts` for the donor is: the document their residence calls for, its currency
   * (EUR for the Cerfa, CHF for the attestation) and the gifts as lines in it, converted at the rate
   * of their day (docs/decisions/024).
   * @throws 409 `receipts.currency_unknown` when that currency is not in the currencies list or a gift's
   *   currency has no ISO code; 409 `exchange_rates.missing` when a rate is missing
   */
  async function receiptOf(
    tx: Executor,
    subscriberId: number,
    gifts: DonationRow[],
    settings: EffectiveSettings,
  ) {
    const document = documentForResidence(
      await repository.residenceOf(tx, subscriberId),
      settings.receiptForOtherCountries,
    );
    const code = DOCUMENT_CURRENCY[document];
    const currency = await repository.currencyByCode(tx, code);
    if (!currency) {
      throw createReceiptCurrencyError(
        `No currency has the ISO code ${code}, in which ${document === 'cerfa' ? 'the French tax receipt' : 'the Swiss donation attestation'} is made out: give it to that currency under Reference lists, Currencies.`,
      );
    }
    const codes = new Map(
      (await repository.currenciesOf(tx, [...new Set(gifts.map((gift) => gift.currencyId))])).map((known) => [
        known.id,
        known,
      ]),
    );
    const toConvert = gifts.map((gift) => {
      const known = codes.get(gift.currencyId);
      const isoCode = gift.currencyId === currency.id ? code : known?.isoCode;
      if (!isoCode) {
        throw createReceiptCurrencyError(
          `The currency ${known?.name ?? gift.currencyId} of the gift of ${gift.donationDate} has no ISO 4217 code to find its exchange rate: give it one under Reference lists, Currencies.`,
        );
      }
      return { id: gift.id, donationDate: gift.donationDate, amount: gift.amount, currency: isoCode };
    });
    const lines = await receiptLines(toConvert, code, (from, date) =>
      exchangeRatesService.rateFor(tx, from, date),
    );
    return { document, currencyId: currency.id, lines };
  }

  /** The receipt covering one donation: the existing one, or a new single receipt. @throws 404 */
  async function receiptForDonation(
    tx: Executor,
    donationId: number,
    user: AuthUser,
    settings: EffectiveSettings,
  ): Promise<ReceiptRow> {
    const donation = await repository.lockDonation(tx, donationId);
    if (!donation) throw createDonationNotFoundError(`No donation has id ${donationId}.`);
    if (donation.receiptId) {
      const existing = await repository.findById(tx, donation.receiptId);
      if (existing) return existing;
    }
    const receipt = await repository.issue(tx, {
      kind: 'single',
      subscriberId: donation.subscriberId,
      year: Number(donation.donationDate.slice(0, 4)),
      ...(await receiptOf(tx, donation.subscriberId, [donation], settings)),
      issuedAt: clock.now(),
      issuedBy: user.fullName,
    });
    await subscribersService.addHistory(tx, {
      subscriberId: donation.subscriberId,
      userName: user.fullName,
      description: `Tax receipt n° ${receipt.number} issued for the donation dated ${donation.donationDate}.`,
    });
    return receipt;
  }

  /**
   * The donor's annual receipts of `year`: the gifts no receipt covers yet get one new receipt, every
   * currency converted into the document's (docs/decisions/024); earlier annual receipts of that year
   * are kept and returned too, with how many are new (`issued`: 0 or 1). @throws 404 when none.
   */
  async function annualReceipts(
    tx: Executor,
    {
      subscriberId,
      year,
      user,
      settings,
    }: { subscriberId: number; year: number; user: AuthUser; settings: EffectiveSettings },
  ): Promise<{ receipts: ReceiptRow[]; issued: number }> {
    await repository.lockSubscriber(tx, subscriberId);
    const uncovered = await repository.listUncoveredDonations(tx, subscriberId, year);
    if (uncovered.length > 0) {
      const receipt = await repository.issue(tx, {
        kind: 'annual',
        subscriberId,
        year,
        ...(await receiptOf(tx, subscriberId, uncovered, settings)),
        issuedAt: clock.now(),
        issuedBy: user.fullName,
      });
      await subscribersService.addHistory(tx, {
        subscriberId,
        userName: user.fullName,
        description: `Annual tax receipt n° ${receipt.number} issued for ${year}.`,
      });
    }
    const receipts = await repository.listAnnualReceipts(tx, subscriberId, year);
    if (receipts.length === 0) {
      throw createNoDonationsForYearError(
        `This subscriber has no donation in ${year} that an annual receipt can cover.`,
      );
    }
    return { receipts, issued: uncovered.length > 0 ? 1 : 0 };
  }

  /** Cancels the receipt of `number` on the caller's transaction, with the donor's history line. */
  async function cancelOn(tx: Executor, number: number, reason: string, user: AuthUser) {
    const receipt = await repository.lockByNumber(tx, number);
    if (!receipt) throw createReceiptNotFoundError(`No receipt has number ${number}.`);
    const cancelled = await repository.cancel(tx, receipt.id, { at: clock.now(), by: user.fullName, reason });
    if (!cancelled) {
      throw createReceiptCancelledError(
        `Receipt n° ${number} was cancelled on ${receipt.cancelledAt?.toISOString().slice(0, 10)} by ${receipt.cancelledBy}: it stays cancelled.`,
      );
    }
    await subscribersService.addHistory(tx, {
      subscriberId: receipt.subscriberId,
      userName: user.fullName,
      description: `Tax receipt n° ${number} cancelled: ${reason}`,
    });
    return cancelled;
  }

  /** The receipt of `number` as the register shows it. */
  async function registered(tx: Executor, number: number) {
    const { rows } = await repository.register(tx, { number }, { offset: 0, limit: 1 });
    const [row] = rows;
    if (!row) throw createReceiptNotFoundError(`No receipt has number ${number}.`);
    return toRegistered(row);
  }

  /** Where a receipt's QR code leads: its public check, with the first 16 hex digits of its hash. */
  const verifyUrl = (receipt: ReceiptRow) =>
    `${publicUrl}/verify/receipt/${receipt.number}?h=${(receipt.hash ?? '').slice(0, VERIFY_HASH_DIGITS)}`;

  async function render(tx: Executor, receipts: ReceiptRow[], settings: EffectiveSettings) {
    const data = [];
    for (const receipt of receipts) data.push(await repository.loadDocumentData(tx, receipt));
    return { data, pdf: await renderPdf(receiptsDocument(data, settings, verifyUrl)) };
  }

  /**
   * Queues the receipt email of `file` (the settings' `receiptEmail*` template for a single receipt,
   * `annualReceiptEmail*` for annual ones; French by default; text and HTML) with the PDF attached,
   * and writes "{subject} emailed to {email}." in the donor's history. @throws 400 without email
   */
  async function queueReceiptEmail(
    tx: Executor,
    {
      file,
      kind,
      user,
      settings,
    }: { file: ReceiptFile; kind: 'single' | 'annual'; user: AuthUser; settings: EffectiveSettings },
  ) {
    const first = file.data[0];
    if (!first) return;
    const email = first.donor.email.trim();
    if (!email) {
      throw createDonorWithoutEmailError('This donor has no email address.', [
        { path: 'email', message: 'This donor has no email address.' },
      ]);
    }
    const templates =
      kind === 'single'
        ? { subject: settings.receiptEmailSubject, text: settings.receiptEmailText }
        : { subject: settings.annualReceiptEmailSubject, text: settings.annualReceiptEmailText };
    const { subject, text, html } = composeEmail(templates, {
      title: first.donor.title,
      firstName: first.donor.firstName,
      lastName: first.donor.lastName,
      organisationName: settings.organisationName || 'notre association',
      signatoryName: settings.signatoryName,
      signatoryTitle: settings.signatoryTitle,
      year: String(first.receipt.year),
      receiptNumber: String(first.receipt.number),
    });
    await mailRepository.enqueue(tx, {
      subscriberId: first.receipt.subscriberId,
      to: email,
      subject,
      text,
      html,
      attachments: [
        {
          filename: file.filename,
          contentType: 'application/pdf',
          contentBase64: file.pdf.toString('base64'),
        },
      ],
    });
    await subscribersService.addHistory(tx, {
      subscriberId: first.receipt.subscriberId,
      userName: user.fullName,
      description: `${subject} emailed to ${email}.`,
    });
  }

  // EffectiveSettings are read before a transaction starts and passed in: PGlite has one connection, so a
  // query on `db` inside a transaction would wait for that transaction forever.
  async function singleFile(
    tx: Executor,
    donationId: number,
    user: AuthUser,
    settings: EffectiveSettings,
  ): Promise<ReceiptFile> {
    const receipt = await receiptForDonation(tx, donationId, user, settings);
    return { filename: `donation-${donationId}-receipt.pdf`, ...(await render(tx, [receipt], settings)) };
  }

  async function annualFile(
    tx: Executor,
    {
      subscriberId,
      year,
      user,
      settings,
    }: { subscriberId: number; year: number; user: AuthUser; settings: EffectiveSettings },
  ): Promise<ReceiptFile & { issued: number }> {
    const { receipts, issued } = await annualReceipts(tx, { subscriberId, year, user, settings });
    const rendered = await render(tx, receipts, settings);
    const lastName = rendered.data[0]?.donor.lastName ?? 'donor';
    return { filename: `${safeFileName(lastName)}-donations-receipt-${year}.pdf`, issued, ...rendered };
  }

  return {
    /** `GET /api/donations/receipt/{donationId}`: the PDF of the receipt covering the donation. */
    donationReceipt: async (donationId: number, user: AuthUser): Promise<ReceiptFile> => {
      const settings = await settingsService.get();
      return db.transaction((tx) => singleFile(tx, donationId, user, settings));
    },

    /** `GET /api/donations/receipt/{subscriberId}/{year}`: the donor's annual receipt(s) of the year. */
    annualReceipt: async (subscriberId: number, year: number, user: AuthUser): Promise<ReceiptFile> => {
      const settings = await settingsService.get();
      return db.transaction((tx) => annualFile(tx, { subscriberId, year, user, settings }));
    },

    /** `GET /api/donations/email/{donationId}`: emails the receipt as a PDF attachment. @throws 400 without email */
    emailDonationReceipt: async (donationId: number, user: AuthUser) => {
      const settings = await settingsService.get();
      await db.transaction(async (tx) => {
        const file = await singleFile(tx, donationId, user, settings);
        await queueReceiptEmail(tx, { file, kind: 'single', user, settings });
      });
      onMailQueued();
    },

    /**
     * `GET /api/donations/annualemail/{subscriberId}/{year}`: emails the annual receipt(s) of the year;
     * resolves with how many receipts were newly issued, how many were already issued, and the address.
     * @throws 400 without email; 404 without a donation of that year
     */
    emailAnnualReceipt: async (
      subscriberId: number,
      year: number,
      user: AuthUser,
    ): Promise<{ issued: number; alreadyIssued: number; emailedTo: string }> => {
      const settings = await settingsService.get();
      const result = await db.transaction(async (tx) => {
        const file = await annualFile(tx, { subscriberId, year, user, settings });
        await queueReceiptEmail(tx, { file, kind: 'annual', user, settings });
        return {
          issued: file.issued,
          alreadyIssued: file.data.length - file.issued,
          emailedTo: file.data[0]?.donor.email.trim() ?? '',
        };
      });
      onMailQueued();
      return result;
    },

    /**
     * A donor's receipts, by number, each with its PDF as issued (`receipt-{number}.pdf`); none is
     * issued by this: the GDPR art. 15 archive (docs/decisions/019).
     */
    receiptsOf: async (subscriberId: number) => {
      const settings = await settingsService.get();
      const rows = await repository.listBySubscriber(db, subscriberId);
      const files = [];
      for (const receipt of rows) {
        const { data, pdf } = await render(db, [receipt], settings);
        const currencySymbol = data[0]?.currency.symbol ?? '';
        files.push({ receipt, currencySymbol, filename: `receipt-${receipt.number}.pdf`, pdf });
      }
      return files;
    },

    /**
     * `GET /api/receipts`: one page of the register, by number, every receipt ever issued (cancelled
     * ones too), so that the numbers show no gap.
     */
    register: async (
      filter: ReceiptRegisterFilter,
      page: { offset: number; limit: number },
    ): Promise<ReceiptRegister> => {
      const { rows, count } = await repository.register(db, filter, page);
      return { count, models: rows.map(toRegistered) };
    },

    /** Every receipt of the register matching `filter`, by number, in pages: the CSV export's rows. */
    registerRows: async function* (filter: ReceiptRegisterFilter) {
      for (let offset = 0; ; offset += REGISTER_BATCH) {
        const { rows } = await repository.register(db, filter, { offset, limit: REGISTER_BATCH });
        // The amount as the database writes it, "15.50": the CSV's two decimals.
        for (const row of rows) yield { ...toRegistered(row), amount: row.total };
        if (rows.length < REGISTER_BATCH) return;
      }
    },

    /**
     * `POST /api/receipts/{number}/cancel` (Administrator): records the cancellation (when, by whom,
     * why) and releases the gifts, which can be receipted again; the donor's history says so. The
     * receipt itself is never edited: its PDF is then printed "ANNULÉ" with the reason.
     * @throws 404 `receipts.not_found`; 409 `receipts.cancelled` when it is already
     */
    cancel: (number: number, reason: string, user: AuthUser): Promise<RegisteredReceipt> =>
      db.transaction(async (tx) => {
        const cancelled = await cancelOn(tx, number, reason, user);
        return registered(tx, cancelled.number);
      }),

    /**
     * `POST /api/receipts/{number}/replace` (Administrator): cancels the receipt and issues, in the same
     * transaction, a new one with the next number for the same gifts (as they are now, for the donor's
     * residence now, docs/decisions/024), which names the one it replaces. Resolves with the new receipt.
     * @throws 404; 409 `receipts.cancelled`; 409 `receipts.currency_unknown`, `exchange_rates.missing`
     */
    replace: async (number: number, reason: string, user: AuthUser): Promise<RegisteredReceipt> => {
      const settings = await settingsService.get();
      return db.transaction(async (tx) => {
        const cancelled = await cancelOn(tx, number, reason, user);
        const gifts = await repository.donationsOf(
          tx,
          cancelled.lines.map((line) => line.donationId),
        );
        const replacement = await repository.issue(tx, {
          kind: cancelled.kind,
          subscriberId: cancelled.subscriberId,
          year: cancelled.year,
          // The donor's residence and the rates as they are now: a replacement often corrects them.
          ...(await receiptOf(tx, cancelled.subscriberId, gifts, settings)),
          issuedAt: clock.now(),
          issuedBy: user.fullName,
          replacesNumber: cancelled.number,
        });
        await subscribersService.addHistory(tx, {
          subscriberId: cancelled.subscriberId,
          userName: user.fullName,
          description: `Tax receipt n° ${replacement.number} issued to replace n° ${cancelled.number}.`,
        });
        return registered(tx, replacement.number);
      });
    },

    /** `GET /api/receipts/{number}/pdf`: the receipt as issued, "ANNULÉ" once cancelled; issues nothing. @throws 404 */
    receiptPdf: async (number: number): Promise<ReceiptFile> => {
      const settings = await settingsService.get();
      const receipt = await repository.findByNumber(db, number);
      if (!receipt) throw createReceiptNotFoundError(`No receipt has number ${number}.`);
      return { filename: `receipt-${number}.pdf`, ...(await render(db, [receipt], settings)) };
    },

    /**
     * `GET /api/receipts/verify`: reads the whole register in number order and recomputes each hash
     * from its content and the previous one; the first receipt whose hash differs (its content, or one
     * before it, was altered), that has none, or whose number does not follow the previous one (a
     * receipt removed) is the break.
     */
    verify: async (): Promise<ReceiptChainCheck> => {
      let previousHash = GENESIS_HASH;
      let previousNumber: number | undefined;
      let checked = 0;
      for (;;) {
        const batch = await repository.chainAfter(db, previousNumber ?? 0);
        if (batch.length === 0) return { ok: true, checked };
        for (const receipt of batch) {
          const broken = (reason: string) => ({
            ok: false,
            checked,
            firstBreak: { number: receipt.number, reason },
          });
          if (previousNumber !== undefined && receipt.number !== previousNumber + 1) {
            return broken(`Receipt n° ${previousNumber + 1} is missing before it.`);
          }
          if (receipt.hash === null) return broken('It has no hash.');
          if (receipt.hash !== receiptHash(previousHash, receipt)) {
            return broken('Its hash does not match its content and the receipt before it: it was altered.');
          }
          checked += 1;
          previousHash = receipt.hash;
          previousNumber = receipt.number;
        }
      }
    },

    /**
     * `GET /verify/receipt/{number}?h=` (public): what the QR code of a receipt leads to. `valid` or
     * `cancelled` with the organisation, the year, the amount and the donor's initials only; `unknown`
     * when no receipt has that number or the link's hash digits are not its own (so that numbers
     * cannot be tried one after another).
     */
    publicCheck: async (number: number, hashDigits: string): Promise<PublicReceiptCheck> => {
      const receipt = await repository.findByNumber(db, number);
      if (!receipt?.hash || hashDigits.toLowerCase() !== receipt.hash.slice(0, VERIFY_HASH_DIGITS)) {
        return { status: 'unknown' };
      }
      const [{ donor, currency }, settings, replacement] = await Promise.all([
        repository.loadDocumentData(db, receipt),
        settingsService.get(),
        repository.register(db, { number }, { offset: 0, limit: 1 }),
      ]);
      const initial = (name: string) => (name.trim() ? `${name.trim().charAt(0).toUpperCase()}.` : '');
      return {
        status: receipt.status === 'cancelled' ? 'cancelled' : 'valid',
        number,
        organisationName: settings.organisationName,
        year: receipt.year,
        amount: formatAmount(Number(receipt.total), currency.symbol),
        donorInitials: [initial(donor.firstName), initial(donor.lastName)].filter(Boolean).join(' '),
        cancelledOn: receipt.cancelledAt ? frenchDateOf(receipt.cancelledAt, settings.timeZone) : undefined,
        replacedBy: replacement.rows[0]?.replacedBy ?? undefined,
      };
    },

    /** Renders receipts already issued into one PDF, each with its QR code: the annual run's print file. */
    renderOn: render,

    /** Issues (or finds) and renders a donor's annual receipts on the caller's transaction: the annual run. */
    annualFileOn: annualFile,
    /**
     * Issues (or finds) a donor's annual receipts of `year` on the caller's transaction without
     * rendering them: the annual run's donors without email, whose receipts the print file renders.
     * @throws 404 `donations.none_for_year`
     */
    issueAnnualReceipts: annualReceipts,
    queueReceiptEmail,
  };
}

export type ReceiptsService = ReturnType<typeof createReceiptsService>;
