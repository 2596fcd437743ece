/**
 * Every route of the client in one place (part 1 §2 Screens and routes; part 2 for subscribers,
 * donations and sales). `path` is the router pattern, `href()` builds the link target.
 * Routing is hash based, so `href()` returns the part after `#`.
 */

type Id = number | string;

/**
 * The subscriber a donations or sales screen is opened for (part 2 §2 routes: "optional params subid,
 * fn, ln, sy"): id, first name, last name and currency symbol.
 */
export type SubscriberRouteParams = { subid: Id; fn: string; ln: string; sy: string };

/** `?subid=..&fn=..&ln=..&sy=..`, or nothing without a subscriber. */
function subscriberQuery(params?: SubscriberRouteParams): string {
  if (!params) return '';
  const query = new URLSearchParams({
    subid: String(params.subid),
    fn: params.fn,
    ln: params.ln,
    sy: params.sy,
  });
  return `?${query.toString()}`;
}

export const paths = {
  root: { path: '/', href: () => '/' },
  home: { path: '/home', href: () => '/home' },
  login: { path: '/login', href: () => '/login' },
  passwordReset: { path: '/password-reset', href: () => '/password-reset' },
  passwordResetConfirm: {
    path: '/password-reset/confirm',
    href: (token?: string) =>
      token ? `/password-reset/confirm?token=${encodeURIComponent(token)}` : '/password-reset/confirm',
  },
  unauthorized: { path: '/unauthorized', href: () => '/unauthorized' },
  password: { path: '/password', href: () => '/password' },
  users: { path: '/users', href: () => '/users' },
  products: { path: '/products', href: () => '/products' },
  subscriptionTypes: { path: '/subs', href: () => '/subs' },
  categories: { path: '/categories', href: () => '/categories' },
  countries: { path: '/countries', href: () => '/countries' },
  paymentMethods: { path: '/payment-methods', href: () => '/payment-methods' },
  currencies: { path: '/currencies', href: () => '/currencies' },
  tags: { path: '/tags', href: () => '/tags' },
  subscribers: { path: '/subscribers', href: () => '/subscribers' },
  subscriber: { path: '/subscriber/:id', href: (id: Id) => `/subscriber/${id}` },
  subscriberHistory: { path: '/subscriber/:id/history', href: (id: Id) => `/subscriber/${id}/history` },
  donations: {
    path: '/donations',
    href: (subscriber?: SubscriberRouteParams) => `/donations${subscriberQuery(subscriber)}`,
  },
  sales: {
    path: '/sales',
    href: (subscriber?: SubscriberRouteParams) => `/sales${subscriberQuery(subscriber)}`,
  },
  newSale: { path: '/newsale/:id', href: (id: Id) => `/newsale/${id}` },
  /** The register of tax receipts (docs/decisions/023, not in the spec), every signed-in user. */
  receipts: { path: '/receipts', href: () => '/receipts' },
  /** The annual statement of the receipts issued (CGI art. 222 bis), Administrators only. */
  receiptStatement: { path: '/receipts/statement', href: () => '/receipts/statement' },
  settings: { path: '/settings', href: () => '/settings' },
  /** The annual receipt run (an addition to the spec), Administrators only. */
  annualReceipts: { path: '/annual-receipts', href: () => '/annual-receipts' },
  /** The audit trail of changes (an addition to the spec), Administrators only. */
  audit: { path: '/audit', href: () => '/audit' },
  /** The background jobs (docs/decisions/013, not in the spec), Administrators only. */
  jobs: { path: '/jobs', href: () => '/jobs' },
  /** Imports of subscribers from a CSV or XLSX file (not in the spec), Administrators only; `id` opens one. */
  imports: { path: '/imports', href: (id?: Id) => (id === undefined ? '/imports' : `/imports?id=${id}`) },
  /** The ECB's euro reference rates that convert gifts to euros (not in the spec), Administrators only. */
  exchangeRates: { path: '/exchange-rates', href: () => '/exchange-rates' },
  /** SEPA direct-debit collections (not in the spec; docs/decisions/029), Administrators only. */
  collections: { path: '/collections', href: () => '/collections' },
  /** One collection: its lines, file and settlement (not in the spec; docs/decisions/029), Administrators only. */
  collection: { path: '/collections/:id', href: (id: Id) => `/collections/${id}` },
  /** Bank statements and their review queue (not in the spec; docs/decisions/033), Administrators only. */
  bankStatements: { path: '/bank-statements', href: () => '/bank-statements' },
  /** Likely duplicates found by a scan of the register (not in the spec), Administrators only. */
  duplicates: { path: '/duplicates', href: () => '/duplicates' },
  /** The merge of subscriber `merge` into subscriber `keep` (not in the spec), Administrators only. */
  mergeSubscribers: {
    path: '/duplicates/merge',
    href: (keep: Id, merge: Id) => `/duplicates/merge?keep=${keep}&merge=${merge}`,
  },
} as const;
