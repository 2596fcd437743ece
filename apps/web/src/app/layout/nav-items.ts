import { paths } from '../../config/paths.ts';

/** One entry of the navigation bar (part 1 §2 Navigation bar). */
export type NavItem = { label: string; href: string };

/** Part 1 §2 Navigation bar: top-level items left of the Admin dropdown. */
export const homeItem: NavItem = { label: 'Home', href: paths.home.href() };

/** Part 1 §2 Navigation bar: the Users item, Administrators only, followed by a divider. */
export const usersItem: NavItem = { label: 'Users', href: paths.users.href() };

/** Part 1 §2 Navigation bar: the reference-data items of the Admin dropdown, in the spec's order. */
export const adminItems: readonly NavItem[] = [
  { label: 'Products', href: paths.products.href() },
  { label: 'Subscription Types', href: paths.subscriptionTypes.href() },
  { label: 'Categories', href: paths.categories.href() },
  { label: 'Countries', href: paths.countries.href() },
  { label: 'Payment Methods', href: paths.paymentMethods.href() },
  { label: 'Currencies', href: paths.currencies.href() },
  { label: 'Tags', href: paths.tags.href() },
];

/** The annual receipt run, Administrators only, in the Admin dropdown before Settings. */
export const annualReceiptsItem: NavItem = { label: 'Annual Receipts', href: paths.annualReceipts.href() };

/** Organisation settings (identity on documents and emails), Administrators only, in the Admin dropdown after Annual Receipts. */
export const settingsItem: NavItem = { label: 'Settings', href: paths.settings.href() };

/** The audit trail, Administrators only, last in the Admin dropdown. */
export const auditItem: NavItem = { label: 'Audit', href: paths.audit.href() };

/** The background jobs (docs/decisions/013), Administrators only, after Audit in the Admin dropdown. */
export const jobsItem: NavItem = { label: 'Jobs', href: paths.jobs.href() };

/** Imports from a CSV or XLSX file (not in the spec), Administrators only, after Jobs in the Admin dropdown. */
export const importsItem: NavItem = { label: 'Imports', href: paths.imports.href() };

/** Likely duplicates and their merge (not in the spec), Administrators only, after Imports in the Admin dropdown. */
export const duplicatesItem: NavItem = { label: 'Duplicates', href: paths.duplicates.href() };

/** The ECB's euro reference rates (not in the spec), Administrators only, after Duplicates in the Admin dropdown. */
export const exchangeRatesItem: NavItem = { label: 'Exchange rates', href: paths.exchangeRates.href() };

/** SEPA direct-debit collections (not in the spec; docs/decisions/029), Administrators only, after Exchange rates in the Admin dropdown. */
export const collectionsItem: NavItem = { label: 'Collections', href: paths.collections.href() };

/** Bank statements and their review queue (not in the spec; docs/decisions/033), Administrators only, after Collections in the Admin dropdown. */
export const bankStatementsItem: NavItem = { label: 'Bank statements', href: paths.bankStatements.href() };

/** Part 1 §2 Navigation bar: the items right of the Admin dropdown, with the receipt register (not in the spec) after Donations. */
export const mainItems: readonly NavItem[] = [
  { label: 'Subscribers', href: paths.subscribers.href() },
  { label: 'Donations', href: paths.donations.href() },
  { label: 'Receipts', href: paths.receipts.href() },
  { label: 'Sales', href: paths.sales.href() },
];

/** Part 1 §2 Navigation bar: the user dropdown's link. */
export const changePasswordItem: NavItem = { label: 'Change Password', href: paths.password.href() };
