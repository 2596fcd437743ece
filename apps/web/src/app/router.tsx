import { type RouteObject, redirect } from 'react-router';
import { paths } from '../config/paths.ts';
import { alwaysRevalidate, requireAdministrator, requireSignedIn } from './guards.ts';
import { PublicLayout } from './layout/public-layout.tsx';
import { PageLoader, RouteErrorBoundary } from './layout/route-fallbacks.tsx';

/**
 * The route table of part 1 §2 (and part 2 §2 for subscribers, donations and sales), hash based.
 * Every screen's code, and the signed-in layout, is loaded on demand. Open: login, password-reset (and its confirm link).
 * Everything else needs a signed-in session checked on every navigation; users, settings, annual
 * receipts, the statement of receipts, the audit trail, jobs, imports, exchange rates, collections, bank statements, duplicates and
 * merges also need the Administrator role.
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteErrorBoundary,
    children: [
      { index: true, loader: () => redirect(paths.home.href()), element: null },
      {
        Component: PublicLayout,
        children: [
          {
            path: paths.login.path,
            lazy: async () => ({ Component: (await import('./routes/login.tsx')).LoginRoute }),
          },
          {
            path: paths.passwordReset.path,
            lazy: async () => ({
              Component: (await import('./routes/password-reset.tsx')).PasswordResetRoute,
            }),
          },
          {
            path: paths.passwordResetConfirm.path,
            lazy: async () => ({
              Component: (await import('./routes/password-reset-confirm.tsx')).PasswordResetConfirmRoute,
            }),
          },
        ],
      },
      {
        id: 'signed-in',
        loader: requireSignedIn,
        shouldRevalidate: alwaysRevalidate,
        // Loaded on demand too: its header, menus and drawer are not needed by the login screen, which loads faster without them.
        lazy: async () => ({ Component: (await import('./layout/app-layout.tsx')).AppLayout }),
        children: [
          {
            path: paths.home.path,
            lazy: async () => ({ Component: (await import('./routes/home.tsx')).HomeRoute }),
          },
          {
            path: paths.unauthorized.path,
            lazy: async () => ({ Component: (await import('./routes/unauthorized.tsx')).UnauthorizedRoute }),
          },
          {
            path: paths.password.path,
            lazy: async () => ({ Component: (await import('./routes/password.tsx')).PasswordRoute }),
          },
          {
            path: paths.products.path,
            lazy: async () => ({ Component: (await import('./routes/products.tsx')).ProductsRoute }),
          },
          {
            path: paths.subscriptionTypes.path,
            lazy: async () => ({
              Component: (await import('./routes/subscription-types.tsx')).SubscriptionTypesRoute,
            }),
          },
          {
            path: paths.categories.path,
            lazy: async () => ({ Component: (await import('./routes/categories.tsx')).CategoriesRoute }),
          },
          {
            path: paths.countries.path,
            lazy: async () => ({ Component: (await import('./routes/countries.tsx')).CountriesRoute }),
          },
          {
            path: paths.paymentMethods.path,
            lazy: async () => ({
              Component: (await import('./routes/payment-methods.tsx')).PaymentMethodsRoute,
            }),
          },
          {
            path: paths.currencies.path,
            lazy: async () => ({ Component: (await import('./routes/currencies.tsx')).CurrenciesRoute }),
          },
          {
            path: paths.tags.path,
            lazy: async () => ({ Component: (await import('./routes/tags.tsx')).TagsRoute }),
          },
          {
            path: paths.subscribers.path,
            lazy: async () => ({ Component: (await import('./routes/subscribers.tsx')).SubscribersRoute }),
          },
          {
            path: paths.subscriber.path,
            lazy: async () => ({ Component: (await import('./routes/subscriber.tsx')).SubscriberRoute }),
          },
          {
            path: paths.subscriberHistory.path,
            lazy: async () => ({
              Component: (await import('./routes/subscriber-history.tsx')).SubscriberHistoryRoute,
            }),
          },
          {
            path: paths.donations.path,
            lazy: async () => ({ Component: (await import('./routes/donations.tsx')).DonationsRoute }),
          },
          {
            path: paths.receipts.path,
            lazy: async () => ({ Component: (await import('./routes/receipts.tsx')).ReceiptsRoute }),
          },
          {
            path: paths.sales.path,
            lazy: async () => ({ Component: (await import('./routes/sales.tsx')).SalesRoute }),
          },
          {
            path: paths.newSale.path,
            lazy: async () => ({ Component: (await import('./routes/new-sale.tsx')).NewSaleRoute }),
          },
          {
            id: 'administrator',
            loader: requireAdministrator,
            shouldRevalidate: alwaysRevalidate,
            children: [
              {
                path: paths.users.path,
                lazy: async () => ({ Component: (await import('./routes/users.tsx')).UsersRoute }),
              },
              {
                path: paths.settings.path,
                lazy: async () => ({ Component: (await import('./routes/settings.tsx')).SettingsRoute }),
              },
              {
                path: paths.receiptStatement.path,
                lazy: async () => ({
                  Component: (await import('./routes/receipt-statement.tsx')).ReceiptStatementRoute,
                }),
              },
              {
                path: paths.annualReceipts.path,
                lazy: async () => ({
                  Component: (await import('./routes/annual-receipts.tsx')).AnnualReceiptsRoute,
                }),
              },
              {
                path: paths.audit.path,
                lazy: async () => ({ Component: (await import('./routes/audit.tsx')).AuditRoute }),
              },
              {
                path: paths.jobs.path,
                lazy: async () => ({ Component: (await import('./routes/jobs.tsx')).JobsRoute }),
              },
              {
                path: paths.imports.path,
                lazy: async () => ({ Component: (await import('./routes/imports.tsx')).ImportsRoute }),
              },
              {
                path: paths.exchangeRates.path,
                lazy: async () => ({
                  Component: (await import('./routes/exchange-rates.tsx')).ExchangeRatesRoute,
                }),
              },
              {
                path: paths.collections.path,
                lazy: async () => ({
                  Component: (await import('./routes/collections.tsx')).CollectionsRoute,
                }),
              },
              {
                path: paths.collection.path,
                lazy: async () => ({
                  Component: (await import('./routes/collections-detail.tsx')).CollectionDetailRoute,
                }),
              },
              {
                path: paths.bankStatements.path,
                lazy: async () => ({
                  Component: (await import('./routes/bank-statements.tsx')).BankStatementsRoute,
                }),
              },
              {
                path: paths.duplicates.path,
                lazy: async () => ({ Component: (await import('./routes/duplicates.tsx')).DuplicatesRoute }),
              },
              {
                path: paths.mergeSubscribers.path,
                lazy: async () => ({
                  Component: (await import('./routes/merge-subscribers.tsx')).MergeSubscribersRoute,
                }),
              },
            ],
          },
        ],
      },
      { path: '*', loader: () => redirect(paths.home.href()), element: null },
    ],
  },
];
