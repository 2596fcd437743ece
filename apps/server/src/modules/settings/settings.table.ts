import type { BankAccount, OrganisationType, ReceiptKind } from '@back-office/contract/settings';
import { sql } from 'drizzle-orm';
import { boolean, check, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The organisation's identity, one row (id = 1), used on receipts, invoices, letters and emails. */
export const organisationSettings = pgTable(
  'organisation_settings',
  {
    id: integer().primaryKey(),
    organisationName: text().notNull().default(''),
    address: text().notNull().default(''),
    emailSenderName: text().notNull().default(''),
    emailSenderAddress: text().notNull().default(''),
    sirenOrRna: text().notNull().default(''),
    sepaCreditorId: text().notNull().default(''),
    signatoryName: text().notNull().default(''),
    signatoryTitle: text().notNull().default(''),
    organisationPurpose: text().notNull().default(''),
    receiptStatement: text().notNull().default(''),
    invoiceFooter: text().notNull().default(''),
    paymentTermsText: text().notNull().default(''),
    /** Email templates (contract `email-templates`); empty means the French default of the contract. */
    receiptEmailSubject: text().notNull().default(''),
    receiptEmailText: text().notNull().default(''),
    annualReceiptEmailSubject: text().notNull().default(''),
    annualReceiptEmailText: text().notNull().default(''),
    brochureEmailSubject: text().notNull().default(''),
    brochureEmailText: text().notNull().default(''),
    bulkEmailFooter: text().notNull().default(''),
    reminderEmailSubject: text().notNull().default(''),
    reminderEmailText: text().notNull().default(''),
    /** Fewest days between two payment reminders of an invoice (1 to 90). */
    reminderIntervalDays: integer().notNull().default(14),
    /** Data URL of a PNG or JPEG, at most 1 MB decoded. */
    logo: text(),
    updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** Years issued receipts and invoices are kept as issued (docs/decisions/019). */
    documentRetentionYears: integer().notNull().default(10),
    /** Years without activity after which the retention report lists a subscriber (GDPR art. 5(1)(e)). */
    inactivityReportYears: integer().notNull().default(3),
    /** The tax receipt of donors living outside France and Switzerland (contract `RECEIPT_KINDS`). */
    receiptForOtherCountries: text().$type<ReceiptKind>().notNull().default('cerfa'),
    /** Structured address (Swiss QR-bill creditor, type "S"); lengths are checked by the contract. */
    addressStreet: text().notNull().default(''),
    addressBuildingNumber: text().notNull().default(''),
    addressPostcode: text().notNull().default(''),
    addressTown: text().notNull().default(''),
    /** ISO 3166-1 alpha-2, or null. */
    addressCountry: text(),
    /** Data URL of a PNG or JPEG, at most 1 MB decoded, like `logo`. */
    signatureImage: text(),
    /** The Cerfa's "Bénéficiaire" box (contract `ORGANISATION_TYPES`) and its detail. */
    organisationType: text().$type<OrganisationType>().notNull().default('general-interest'),
    organisationTypeDetail: text().notNull().default(''),
    /** SEPA direct debit: pre-notification days (2 to 60) and first collections sent as RCUR. */
    sepaPreNotificationDays: integer().notNull().default(14),
    sepaFirstAsRecurring: boolean().notNull().default(false),
    /** The account direct debits are credited to: IBAN and BIC, empty while unknown. */
    sepaCreditorIban: text().notNull().default(''),
    sepaCreditorBic: text().notNull().default(''),
    /** The accounts invoices are paid to, one per currency (docs/decisions/031). */
    bankAccounts: jsonb().$type<BankAccount[]>().notNull().default([]),
    /** Whether euro invoices without a Swiss QR-bill carry an EPC QR code (EPC069-12). */
    epcQrCode: boolean().notNull().default(false),
  },
  (table) => [
    check(
      'organisation_settings_reminder_interval_days_check',
      sql`${table.reminderIntervalDays} between 1 and 90`,
    ),
    check(
      'organisation_settings_document_retention_years_check',
      sql`${table.documentRetentionYears} between 1 and 50`,
    ),
    check(
      'organisation_settings_inactivity_report_years_check',
      sql`${table.inactivityReportYears} between 1 and 50`,
    ),
    check(
      'organisation_settings_receipt_for_other_countries_check',
      sql`${table.receiptForOtherCountries} in ('cerfa', 'attestation')`,
    ),
    check(
      'organisation_settings_sepa_pre_notification_days_check',
      sql`${table.sepaPreNotificationDays} between 2 and 60`,
    ),
    check('organisation_settings_address_country_check', sql`${table.addressCountry} ~ '^[A-Z]{2}$'`),
  ],
);
