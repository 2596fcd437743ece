import { addCalendarDays, calendarDay } from '@back-office/contract/calendar';
import {
  type CollectionDetail,
  type CollectionFileVersion,
  type CollectionLine,
  type CollectionReturnLine,
  type CollectionReturnsResult,
  type CollectionSequenceType,
  type CollectionSummary,
  describeReturnReason,
} from '@back-office/contract/collections';
import type { PlanFrequency } from '@back-office/contract/plans';
import { extractIBAN } from 'ibantools';
import type { Database, Executor } from '../../db/client.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FieldError } from '../../lib/errors.ts';
import { formatAmount, toCents } from '../../lib/money.ts';
import type { AuthUser } from '../auth/auth.service.ts';
import {
  buildPain008,
  Pain008Error,
  type SepaDirectDebitTransaction,
  type SepaMandateAmendment,
  type SepaPostalAddress,
  toSepaText,
} from '../direct-debit/pain008.ts';
import {
  type DirectDebitReturn,
  isImmediateSuspension,
  parseDirectDebitReturns,
} from '../direct-debit/returns.ts';
import type { DonationWrites } from '../donations/donations.service.ts';
import { frenchDate } from '../donations/receipt-document.ts';
import type { MailRepository } from '../mail/mail.repository.ts';
import type { MandatesRepository } from '../mandates/mandates.repository.ts';
import type { MandatesService } from '../mandates/mandates.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { SubscribersService } from '../subscribers/subscribers.service.ts';
import {
  createCollectionEmptyError,
  createCollectionNotDraftError,
  createCollectionNotExportedError,
  createCollectionNotFoundError,
  createCollectionSettledError,
  createCollectionSetupError,
  createCollectionTooLateError,
  createCollectionTooSoonError,
  createCollectionVersionError,
} from './collections.errors.ts';
import type {
  CollectionLineDetail,
  CollectionsRepository,
  DueInstallment,
  ReturnableLine,
} from './collections.repository.ts';
import type { CollectionRow } from './collections.table.ts';

/** What a build answers: the collection, and whether this call created it (201) or found it (200). */
export type BuiltCollection = { created: boolean; collection: CollectionSummary };

/** The remittance text of an installment by the plan's frequency: "Don mensuel - <organisation>". */
const GIFT_WORDS: Record<PlanFrequency, string> = {
  monthly: 'Don mensuel',
  quarterly: 'Don trimestriel',
  halfYearly: 'Don semestriel',
  yearly: 'Don annuel',
};

/**
 * R-transactions on one mandate after which it is suspended whatever their reason (docs/decisions/030):
 * the second return says the debtor's account cannot be relied on; staff talk to the donor first.
 */
const SUSPEND_AFTER_RETURNS = 2;

/** A downloaded file: the pain.008 XML and its name `collection-<dueDate>.xml`. */
export type CollectionFile = { xml: string; filename: string };

/**
 * Sequence type of a new line (EPC rulebook AT-21): OOFF under a one-off mandate; FRST for the first
 * collection of a recurring one unless the settings send it as RCUR (allowed since the 2016 rulebook);
 * RCUR after.
 */
export function sequenceTypeOf(
  installment: Pick<DueInstallment, 'mandateType' | 'mandateUsed'>,
  firstAsRecurring: boolean,
): CollectionSequenceType {
  if (installment.mandateType === 'oneOff') return 'OOFF';
  return installment.mandateUsed || firstAsRecurring ? 'RCUR' : 'FRST';
}

/** Only the last 4 characters of an IBAN are shown: `•••• 0189`. */
export function maskIban(iban: string): string {
  return iban ? `•••• ${iban.slice(-4)}` : '';
}

const fullName = (line: Pick<CollectionLineDetail, 'title' | 'firstName' | 'lastName'>) =>
  [line.title, line.firstName, line.lastName].filter((part) => part.trim() !== '').join(' ');

/** True when an account moved to another bank (ibantools' bank code; unknown counts as another bank). */
function changedBank(originalIban: string, iban: string): boolean {
  const before = extractIBAN(originalIban);
  const after = extractIBAN(iban);
  return !(
    before.countryCode === after.countryCode &&
    before.bankIdentifier !== undefined &&
    before.bankIdentifier === after.bankIdentifier
  );
}

function toLine(line: CollectionLineDetail): CollectionLine {
  return {
    id: line.id,
    planId: line.planId,
    subscriberId: line.subscriberId,
    subscriberName: fullName(line),
    rum: line.rum,
    iban: maskIban(line.iban),
    amount: Number(line.amount),
    sequenceType: line.sequenceType,
    endToEndId: line.endToEndId,
    status: line.status,
    ...(line.reasonCode !== null ? { reasonCode: line.reasonCode } : {}),
    ...(line.donationId !== null ? { donationId: line.donationId } : {}),
  };
}

/**
 * SEPA direct-debit collections (contract `collections`, docs/decisions/029; EPC SEPA Core Direct
 * Debit rulebook EPC016-09; ISO 20022 pain.008): the draft of a due date built from the recurring
 * gifts, its pain.008 file with the debtors' pre-notifications, and its settlement as donations.
 * Amounts are euros; dates `YYYY-MM-DD` in the organisation's time zone. Locks: collection first,
 * then what its lines touch.
 */
export function createCollectionsService({
  db,
  repository,
  mandatesRepository,
  mandatesService,
  subscribersService,
  donationWrites,
  settingsService,
  mailRepository,
  onMailQueued,
  clock,
  timeZone,
}: {
  db: Database;
  repository: CollectionsRepository;
  mandatesRepository: Pick<MandatesRepository, 'findById' | 'update' | 'clearAmendment'>;
  mandatesService: Pick<MandatesService, 'suspendOn'>;
  subscribersService: Pick<SubscribersService, 'addHistory'>;
  donationWrites: Pick<DonationWrites, 'addOn' | 'findLockedOn' | 'removeOn'>;
  settingsService: Pick<SettingsService, 'get'>;
  mailRepository: Pick<MailRepository, 'enqueueMany'>;
  onMailQueued: () => void;
  clock: Clock;
  timeZone: string;
}) {
  const today = () => calendarDay(clock.now(), timeZone);
  const notFound = (id: number) => createCollectionNotFoundError(`No collection has id ${id}.`);

  async function findOrFail(tx: Executor, id: number, lock = false): Promise<CollectionRow> {
    const row = await repository.findById(tx, id, { lock });
    if (!row) throw notFound(id);
    return row;
  }

  async function summaryOf(tx: Executor, id: number): Promise<CollectionSummary> {
    const summary = await repository.summary(tx, id);
    if (!summary) throw notFound(id);
    return summary;
  }

  function refuseMissingCreditorId(creditorId: string) {
    if (creditorId.trim() === '') {
      const message = 'Set the SEPA creditor identifier (ICS) in the settings.';
      throw createCollectionSetupError(message, [{ path: 'sepaCreditorId', message }]);
    }
  }

  /** The pain.008 transaction of a pending line, and the sequence type it is written with. */
  function transactionOf(
    line: CollectionLineDetail,
    dueDate: string,
    remittance: string,
  ): SepaDirectDebitTransaction {
    const amendment: SepaMandateAmendment = {
      ...(line.originalRum ? { originalRum: line.originalRum } : {}),
      ...(line.originalIban ? { originalIban: line.originalIban } : {}),
    };
    const amended = line.amendedOn !== null && Object.keys(amendment).length > 0;
    // An account moved to another bank goes out as a first collection (IG: SMNDA with FRST).
    const sequenceType =
      amended &&
      line.originalIban &&
      line.sequenceType === 'RCUR' &&
      changedBank(line.originalIban, line.iban)
        ? 'FRST'
        : line.sequenceType;
    const address: SepaPostalAddress | undefined =
      line.countryCode && line.town.trim() !== ''
        ? {
            country: line.countryCode,
            town: line.town,
            ...(line.street ? { street: line.street } : {}),
            ...(line.postcode ? { postcode: line.postcode } : {}),
          }
        : undefined;
    return {
      endToEndId: line.endToEndId,
      amountCents: toCents(line.amount),
      dueDate,
      sequenceType,
      mandate: { rum: line.rum, signedOn: line.signedOn, ...(amended ? { amendment } : {}) },
      debtor: {
        name: toSepaText(`${line.firstName} ${line.lastName}`, 70) || toSepaText(fullName(line), 70),
        iban: line.iban,
        ...(line.bic ? { bic: line.bic } : {}),
        ...(address ? { address } : {}),
      },
      remittance,
    };
  }

  /** The pre-notification of one debtor (EPC rulebook PT-04.03): amounts, due date, RUM and ICS. */
  function preNotification(
    lines: CollectionLineDetail[],
    dueDate: string,
    organisation: string,
    creditorId: string,
  ) {
    const [first] = lines;
    if (!first) return undefined;
    const debits = lines
      .map((line) => `- ${formatAmount(Number(line.amount), '€')}, mandat (RUM) ${line.rum}`)
      .join('\n');
    const total = lines.reduce((sum, line) => sum + toCents(line.amount), 0) / 100;
    const greeting = [first.firstName, first.lastName].filter(Boolean).join(' ');
    return {
      to: first.email,
      subscriberId: first.subscriberId,
      subject: `Prélèvement SEPA du ${frenchDate(dueDate)} - ${organisation}`.trim(),
      text: [
        `Bonjour ${greeting},`,
        '',
        `Nous vous informons que ${organisation} prélèvera ${formatAmount(total, '€')} sur votre compte le ${frenchDate(dueDate)} (ou le jour ouvré suivant) :`,
        debits,
        '',
        `Identifiant créancier SEPA (ICS) : ${creditorId}`,
        '',
        'Merci de votre soutien.',
        organisation,
      ].join('\n'),
    };
  }

  /**
   * One R-transaction on a line exported and not yet returned (see `applyReturns`): the line marked,
   * its donation cancelled or flagged, the debtor's history told, the mandate suspended when due.
   */
  async function applyReturn(
    tx: Executor,
    line: ReturnableLine,
    entry: DirectDebitReturn,
    user: AuthUser,
  ): Promise<Pick<CollectionReturnLine, 'donation' | 'receiptNumber' | 'mandateSuspended'>> {
    const outcome: Pick<CollectionReturnLine, 'donation' | 'receiptNumber' | 'mandateSuspended'> = {};
    const reason = describeReturnReason(entry.reasonCode);
    const what = entry.status === 'rejected' ? 'rejected' : 'returned';
    const gift =
      line.donationId === null ? undefined : await donationWrites.findLockedOn(tx, line.donationId);
    if (gift && gift.receiptNumber === null) {
      await donationWrites.removeOn(tx, gift, user, `as its direct debit was ${what} by the bank: ${reason}`);
      outcome.donation = 'cancelled';
    } else if (gift) {
      await subscribersService.addHistory(tx, {
        subscriberId: line.subscriberId,
        userName: user.fullName,
        description: `Tax receipt n° ${gift.receiptNumber} covers the gift of ${formatAmount(Number(gift.amount), gift.currencySymbol)} dated ${gift.donationDate}, whose direct debit was ${what} by the bank (${reason}): the receipt should be cancelled.`,
      });
      outcome.donation = 'receipted';
      outcome.receiptNumber = gift.receiptNumber ?? undefined;
    }
    await repository.markLineReturned(tx, line.id, {
      status: entry.status,
      reasonCode: entry.reasonCode,
      at: clock.now(),
    });
    await subscribersService.addHistory(tx, {
      subscriberId: line.subscriberId,
      userName: user.fullName,
      description: `Direct debit of ${formatAmount(Number(line.amount), '€')} due ${line.dueDate} (mandate ${line.rum}) ${what} by the bank: ${reason}.`,
    });
    // A collection rejected before settlement did not use the mandate (its next one is a FRST again).
    if (entry.status === 'rejected') {
      const mandate = await mandatesRepository.findById(tx, line.mandateId, { lock: true });
      if (mandate && mandate.lastCollectedOn === line.dueDate) {
        await mandatesRepository.update(tx, line.mandateId, {
          lastCollectedOn: await repository.lastCollectedDay(tx, line.mandateId),
        });
      }
    }
    const returns = await repository.returnCount(tx, line.mandateId);
    const immediate = isImmediateSuspension(entry.reasonCode);
    if (immediate || returns >= SUSPEND_AFTER_RETURNS) {
      const why = immediate
        ? `the bank ${what} the direct debit due ${line.dueDate}: ${reason}.`
        : `${returns} direct debits returned or rejected by the bank, the last due ${line.dueDate}: ${reason}.`;
      if (await mandatesService.suspendOn(tx, line.mandateId, why, user)) outcome.mandateSuspended = true;
    }
    return outcome;
  }

  return {
    /**
     * `POST /api/collections`: builds the draft of `dueDate` (`YYYY-MM-DD`), or completes and returns
     * the one that exists, with a line per installment due that day (see the repository's
     * `dueInstallments`). @throws 409 `collections.too_soon` before today + the pre-notification days
     * (field `dueDate`), 409 `collections.setup_incomplete` without a creditor identifier.
     */
    build: async (dueDate: string, user: AuthUser): Promise<BuiltCollection> => {
      const settings = await settingsService.get();
      refuseMissingCreditorId(settings.sepaCreditorId);
      const earliest = addCalendarDays(today(), settings.sepaPreNotificationDays);
      if (dueDate < earliest) {
        const message = `The earliest due date is ${earliest}: each debtor is told ${settings.sepaPreNotificationDays} days before.`;
        throw createCollectionTooSoonError(`The due date ${dueDate} is too soon. ${message}`, [
          { path: 'dueDate', message },
        ]);
      }
      return db.transaction(async (tx) => {
        const created = await repository.insertDraft(tx, dueDate, user.fullName);
        // The lock serialises concurrent builds of the same day: the second one sees the first's lines.
        const draft = await repository.lockDraft(tx, dueDate);
        if (!draft) throw new Error(`the draft of ${dueDate} vanished`);
        const due = await repository.dueInstallments(tx, dueDate, draft.id);
        const compact = dueDate.replaceAll('-', '');
        await repository.insertLines(
          tx,
          due.map((installment) => ({
            collectionId: draft.id,
            planId: installment.planId,
            mandateId: installment.mandateId,
            subscriberId: installment.subscriberId,
            dueDate,
            amount: installment.amount,
            sequenceType: sequenceTypeOf(installment, settings.sepaFirstAsRecurring),
            endToEndId: `C${draft.id}-P${installment.planId}-${compact}`,
          })),
        );
        return { created, collection: await summaryOf(tx, draft.id) };
      });
    },

    /** `GET /api/collections`: newest due date first. */
    list: (): Promise<CollectionSummary[]> => repository.list(db),

    /** `GET /api/collections/{id}`: the collection and its lines. @throws 404 */
    get: async (id: number): Promise<CollectionDetail> => {
      const row = await findOrFail(db, id);
      const summary = await summaryOf(db, id);
      const lines = await repository.lines(db, id);
      return {
        ...summary,
        ...(row.fileVersion ? { fileVersion: row.fileVersion } : {}),
        ...(row.exportedAt ? { exportedAt: row.exportedAt.toISOString() } : {}),
        ...(row.settledAt ? { settledAt: row.settledAt.toISOString() } : {}),
        lines: lines.map(toLine),
      };
    },

    /** `DELETE /api/collections/{id}/lines/{lineId}`: a draft's line is removed. @throws 404, 409 `collections.not_draft` */
    removeLine: (id: number, lineId: number): Promise<void> =>
      db.transaction(async (tx) => {
        const row = await findOrFail(tx, id, true);
        if (row.status !== 'draft') {
          throw createCollectionNotDraftError(
            `The collection ${id} is ${row.status}: its lines no longer change.`,
          );
        }
        if (!(await repository.removeLine(tx, id, lineId))) {
          throw createCollectionNotFoundError(`The collection ${id} has no line ${lineId}.`);
        }
      }),

    /**
     * `GET /api/collections/{id}/file?version=`: a draft's pain.008 file is written from its pending
     * lines, stored, and the collection exported in one transaction that also clears the amendments
     * it carries and queues the debtors' pre-notifications; an exported or settled one's stored file
     * is returned as it is. Lines whose mandate was revoked or expired, whose plan was paused or ended,
     * or whose subscriber was deleted since the build are removed then. @throws 404; 409 `collections.too_late` past the due date minus the
     * pre-notification days, `collections.version_mismatch` (field `version`) for the other version
     * of a stored file, `collections.setup_incomplete`, `collections.empty`.
     */
    file: async (id: number, version: CollectionFileVersion, user: AuthUser): Promise<CollectionFile> => {
      const settings = await settingsService.get();
      let queued = false;
      const result = await db.transaction(async (tx) => {
        const row = await findOrFail(tx, id, true);
        const filename = `collection-${row.dueDate}.xml`;
        if (row.status !== 'draft') {
          if (row.fileVersion !== version || row.fileXml === null) {
            const message = `This collection's file was written in ${row.fileVersion}.`;
            throw createCollectionVersionError(message, [{ path: 'version', message }]);
          }
          return { xml: row.fileXml, filename };
        }
        const latest = addCalendarDays(row.dueDate, -settings.sepaPreNotificationDays);
        if (today() > latest) {
          throw createCollectionTooLateError(
            `The file of the collection due ${row.dueDate} had to be exported by ${latest}, so that each debtor is told ${settings.sepaPreNotificationDays} days before; remove it and build one on a later date.`,
          );
        }
        refuseMissingCreditorId(settings.sepaCreditorId);
        const missing: FieldError[] = [];
        if (!settings.sepaCreditorIban) {
          missing.push({
            path: 'sepaCreditorIban',
            message: 'Set the IBAN direct debits are credited to in the settings.',
          });
        }
        if (settings.organisationName.trim() === '') {
          missing.push({ path: 'organisationName', message: 'Set the organisation name in the settings.' });
        }
        if (missing.length > 0) {
          throw createCollectionSetupError(missing.map((field) => field.message).join(' '), missing);
        }
        const pending = await repository.lines(tx, id, { pendingOnly: true });
        // A mandate revoked, a plan paused or a subscriber deleted since the build: that line is removed.
        const lines = pending.filter((line) => line.collectable);
        for (const line of pending) {
          if (!line.collectable) await repository.removeLine(tx, id, line.id);
        }
        if (lines.length === 0) throw createCollectionEmptyError(`The collection ${id} has no pending line.`);

        const organisation = settings.organisationName.trim();
        const transactions = lines.map((line) =>
          transactionOf(
            line,
            row.dueDate,
            toSepaText(`${GIFT_WORDS[line.frequency]} - ${organisation}`, 140),
          ),
        );
        const messageId = `COLL-${id}-${row.dueDate.replaceAll('-', '')}`;
        const creditorAddress: SepaPostalAddress | undefined =
          settings.addressCountry && (settings.addressTown ?? '').trim() !== ''
            ? {
                country: settings.addressCountry,
                town: settings.addressTown ?? '',
                ...(settings.addressStreet ? { street: settings.addressStreet } : {}),
                ...(settings.addressBuildingNumber ? { buildingNumber: settings.addressBuildingNumber } : {}),
                ...(settings.addressPostcode ? { postcode: settings.addressPostcode } : {}),
              }
            : undefined;
        let xml: string;
        try {
          xml = buildPain008({
            version,
            messageId,
            createdAt: clock.now(),
            creditor: {
              name: organisation,
              iban: settings.sepaCreditorIban,
              creditorId: settings.sepaCreditorId.trim(),
              ...(settings.sepaCreditorBic ? { bic: settings.sepaCreditorBic } : {}),
              ...(creditorAddress ? { address: creditorAddress } : {}),
            },
            transactions,
          });
        } catch (error) {
          // A wrong ICS or creditor account is a setting to fix, not a bad request.
          if (error instanceof Pain008Error && error.field.startsWith('creditor')) {
            const path = error.field === 'creditor.creditorId' ? 'sepaCreditorId' : error.field;
            throw createCollectionSetupError(error.message, [{ path, message: error.message }]);
          }
          throw error;
        }
        await repository.markExported(tx, id, {
          fileVersion: version,
          fileXml: xml,
          messageId,
          at: clock.now(),
          by: user.fullName,
        });
        const cleared = new Set<number>();
        for (const [index, line] of lines.entries()) {
          const written = transactions[index]?.sequenceType;
          if (written && written !== line.sequenceType && written !== 'FNAL') {
            await repository.setSequenceType(tx, line.id, written);
          }
          if (line.amendedOn !== null && !cleared.has(line.mandateId)) {
            cleared.add(line.mandateId);
            await mandatesRepository.clearAmendment(tx, line.mandateId);
          }
        }
        const byDebtor = new Map<number, CollectionLineDetail[]>();
        for (const line of lines) {
          if (line.email.trim() === '') continue;
          byDebtor.set(line.subscriberId, [...(byDebtor.get(line.subscriberId) ?? []), line]);
        }
        const preNotifications = [...byDebtor.values()].flatMap(
          (debtorLines) =>
            preNotification(debtorLines, row.dueDate, organisation, settings.sepaCreditorId.trim()) ?? [],
        );
        await mailRepository.enqueueMany(tx, preNotifications);
        queued = preNotifications.length > 0;
        return { xml, filename };
      });
      if (queued) onMailQueued();
      return result;
    },

    /**
     * `POST /api/collections/{id}/settle`: each pending line of an exported collection becomes a
     * donation of its subscriber (euros, dated the due date, notes "Prélèvement SEPA <RUM>"), the
     * mandate's `last_collected_on` the due date, the collection settled, in one transaction.
     * @throws 404; 409 `collections.settled` when settled already, `collections.not_exported` for a draft.
     */
    settle: (id: number, user: AuthUser): Promise<CollectionSummary> =>
      db.transaction(async (tx) => {
        const row = await findOrFail(tx, id, true);
        if (row.status === 'settled')
          throw createCollectionSettledError(`The collection ${id} is settled already.`);
        if (row.status !== 'exported') {
          throw createCollectionNotExportedError(`The collection ${id} is a draft: export its file first.`);
        }
        const euro = await repository.euro(tx);
        if (!euro) {
          const message = 'Add the currency whose ISO code is EUR to the currencies.';
          throw createCollectionSetupError(message, [{ path: 'currency', message }]);
        }
        const lines = await repository.lines(tx, id, { pendingOnly: true });
        for (const line of lines) {
          const donationId = await donationWrites.addOn(
            tx,
            {
              subscriberId: line.subscriberId,
              amount: line.amount,
              currencyId: euro.id,
              currencySymbol: euro.symbol,
              donationDate: row.dueDate,
              notes: `Prélèvement SEPA ${line.rum}`,
            },
            user,
          );
          await repository.markLineCollected(tx, line.id, donationId);
          const mandate = await mandatesRepository.findById(tx, line.mandateId, { lock: true });
          if (mandate && (mandate.lastCollectedOn === null || mandate.lastCollectedOn < row.dueDate)) {
            await mandatesRepository.update(tx, line.mandateId, { lastCollectedOn: row.dueDate });
          }
        }
        await repository.markSettled(tx, id, clock.now(), user.fullName);
        return summaryOf(tx, id);
      }),

    /**
     * `POST /api/collections/returns`: applies a bank's pain.002 status report or camt.054 debit
     * notification (EPC SEPA Core rulebook, R-transactions; docs/decisions/030) in one transaction.
     * Each reported transaction is found by its EndToEndId; a line exported and still pending or
     * collected becomes `returned` or `rejected` with its ISO reason code; its donation, when settled,
     * is deleted, or, when a tax receipt covers it, kept with a history line saying the receipt should
     * be cancelled; a rejected first collection no longer counts as the mandate's use. The mandate is
     * suspended at its second R-transaction, or at once on MD01, AC04, AC06 or MD07. A line already
     * returned or rejected is left as it is, so the same file twice changes nothing. Locks: the
     * collections of the lines named, in id order, then the lines, donations, mandates, subscribers.
     * @throws 400 `direct_debit.invalid_return_file` for a file that is not one of those messages.
     */
    applyReturns: async (file: Uint8Array, user: AuthUser): Promise<CollectionReturnsResult> => {
      const reported = parseDirectDebitReturns(file);
      const endToEndIds = [...new Set(reported.map((entry) => entry.endToEndId))];
      return db.transaction(async (tx) => {
        const named = await repository.linesByEndToEndId(tx, endToEndIds);
        await repository.lockMany(tx, [...new Set(named.map((line) => line.collectionId))]);
        const lines = new Map(
          (await repository.linesByEndToEndId(tx, endToEndIds, { lock: true })).map((line) => [
            line.endToEndId,
            line,
          ]),
        );
        const result: CollectionReturnsResult = {
          applied: 0,
          alreadyApplied: 0,
          notSent: 0,
          unknown: 0,
          lines: [],
        };
        for (const entry of reported) {
          const line = lines.get(entry.endToEndId);
          const base = { endToEndId: entry.endToEndId, status: entry.status, reasonCode: entry.reasonCode };
          if (!line) {
            result.unknown += 1;
            result.lines.push({ ...base, outcome: 'unknown' });
            continue;
          }
          const known = {
            ...base,
            collectionId: line.collectionId,
            lineId: line.id,
            subscriberId: line.subscriberId,
            subscriberName: fullName(line),
            rum: line.rum,
            amount: Number(line.amount),
          };
          if (line.status === 'returned' || line.status === 'rejected') {
            result.alreadyApplied += 1;
            result.lines.push({ ...known, outcome: 'alreadyApplied' });
            continue;
          }
          if (line.collectionStatus === 'draft' || line.status === 'removed') {
            result.notSent += 1;
            result.lines.push({ ...known, outcome: 'notSent' });
            continue;
          }
          const applied = await applyReturn(tx, line, entry, user);
          line.status = entry.status;
          result.applied += 1;
          result.lines.push({ ...known, outcome: 'applied', ...applied });
        }
        return result;
      });
    },
  };
}

export type CollectionsService = ReturnType<typeof createCollectionsService>;
