import type { Readable } from 'node:stream';
import type { DonationExportQuery } from '@back-office/contract/donations';
import type { Database } from '../../db/client.ts';
import { keysetBatches } from '../../lib/keyset-rows.ts';
import { XLSX_CONTENT_TYPE, type XlsxColumn, xlsxStream } from '../../lib/spreadsheet/xlsx-stream.ts';
import type { ExportSource } from '../exports/export-source.ts';
import type {
  DonationCursor,
  DonationsExportRepository,
  DonorCursor,
} from './donations-export.repository.ts';

const BATCH = 500;

type DonationRow = Awaited<ReturnType<DonationsExportRepository['donationsBatch']>>[number];
type DonorRow = Awaited<ReturnType<DonationsExportRepository['donorsBatch']>>[number];

const DONATION_COLUMNS: ReadonlyArray<XlsxColumn<DonationRow>> = [
  { header: 'Donation id', type: 'integer', value: (row) => row.id },
  { header: 'Date', type: 'date', width: 12, value: (row) => row.donationDate },
  { header: 'Amount', type: 'number', value: (row) => Number(row.amount) },
  { header: 'Currency', width: 9, value: (row) => row.currency },
  { header: 'Receipt n°', type: 'integer', value: (row) => row.receiptNumber },
  { header: 'Subscriber id', type: 'integer', value: (row) => row.subscriberId },
  { header: 'Title', width: 8, value: (row) => row.title },
  { header: 'First name', value: (row) => row.firstName },
  { header: 'Last name', value: (row) => row.lastName },
  { header: 'Email', width: 28, value: (row) => row.email },
  { header: 'Postcode', type: 'code', width: 10, value: (row) => row.postcode },
  { header: 'Town', value: (row) => row.town },
  { header: 'Country', value: (row) => row.country ?? '' },
  { header: 'Payment method', value: (row) => row.paymentMethod ?? '' },
  { header: 'Notes', width: 30, value: (row) => row.notes },
  { header: 'Added by', value: (row) => row.addedBy },
  { header: 'Added on', type: 'datetime', width: 17, value: (row) => row.addedOn },
];

const DONOR_COLUMNS: ReadonlyArray<XlsxColumn<DonorRow>> = [
  { header: 'Subscriber id', type: 'integer', value: (row) => row.subscriberId },
  { header: 'Title', width: 8, value: (row) => row.title },
  { header: 'First name', value: (row) => row.firstName },
  { header: 'Last name', value: (row) => row.lastName },
  { header: 'Association', value: (row) => row.association },
  { header: 'Address 1', width: 24, value: (row) => row.address1 },
  { header: 'Address 2', value: (row) => row.address2 },
  { header: 'Address 3', value: (row) => row.address3 },
  { header: 'Postcode', type: 'code', width: 10, value: (row) => row.postcode },
  { header: 'Town', value: (row) => row.town },
  { header: 'Country', value: (row) => row.country ?? '' },
  { header: 'Email', width: 28, value: (row) => row.email },
  { header: 'Gifts', type: 'integer', width: 7, value: (row) => row.gifts },
  { header: 'Total', type: 'number', value: (row) => Number(row.total) },
  { header: 'Currency', width: 9, value: (row) => row.currency },
];

/**
 * The donation exports (part 2 §7 `GET /api/donations/export`): the matching donations as
 * `donation-details-export.xlsx` (one row per donation, with `isdetailed`) or
 * `donation-subscribers-export.xlsx` (one row per donor and currency with the total), read in keyset
 * batches, cells formula-safe; dates and times written in `timeZone` (docs/decisions/012).
 */
export function createDonationsExportService({
  db,
  repository,
  timeZone,
}: {
  db: Database;
  repository: DonationsExportRepository;
  timeZone: string;
}): ExportSource<DonationExportQuery> {
  return {
    fileName: ({ isdetailed }) =>
      isdetailed ? 'donation-details-export.xlsx' : 'donation-subscribers-export.xlsx',
    contentType: XLSX_CONTENT_TYPE,

    /** Rows the export writes (donations, or donors and currencies); with `cap`, up to `cap + 1`. */
    countRows: ({ isdetailed, ...filter }, cap) =>
      repository.countRows(db, { filter, perDonor: !isdetailed, cap }),

    stream: ({ isdetailed, ...filter }, onRows): Readable =>
      isdetailed
        ? xlsxStream({
            timeZone,
            sheetName: 'Donations',
            columns: DONATION_COLUMNS,
            batches: keysetBatches(
              BATCH,
              (cursor: DonationCursor | undefined) =>
                repository.donationsBatch(db, { filter, cursor, limit: BATCH }),
              (row) => ({ donationDate: row.donationDate, id: row.id }),
              onRows,
            ),
          })
        : xlsxStream({
            timeZone,
            sheetName: 'Donors',
            columns: DONOR_COLUMNS,
            batches: keysetBatches(
              BATCH,
              (cursor: DonorCursor | undefined) =>
                repository.donorsBatch(db, { filter, cursor, limit: BATCH }),
              (row) => ({
                searchLastName: row.searchLastName,
                searchFirstName: row.searchFirstName,
                subscriberId: row.subscriberId,
                currency: row.currency,
              }),
              onRows,
            ),
          }),
  };
}
