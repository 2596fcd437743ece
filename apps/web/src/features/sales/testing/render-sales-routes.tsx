import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useParams, useSearchParams } from 'react-router';
import { AppProvider } from '../../../app/provider.tsx';
import { paths } from '../../../config/paths.ts';
import { NewSaleScreen } from '../components/new-sale-screen.tsx';
import { SalesScreen } from '../components/sales-screen.tsx';
import { salesSubscriberFromParams } from '../sales-route-params.ts';

function SalesPage() {
  const [params] = useSearchParams();
  const subscriber = salesSubscriberFromParams(params);
  return <SalesScreen key={subscriber?.id ?? 'all'} subscriber={subscriber} />;
}

function NewSalePage() {
  const { id } = useParams();
  return <NewSaleScreen key={id} subscriberId={Number(id)} />;
}

/**
 * Renders the two sales screens (part 2 §2.5, §2.6) in a memory router at `path`, at their paths of
 * `config/paths.ts`, with a stand-in for the subscriber screen they link to. Independent of the rest
 * of the route table.
 */
export function renderSalesRoutes(path: string) {
  const user = userEvent.setup();
  const router = createMemoryRouter(
    [
      { path: paths.sales.path, Component: SalesPage },
      { path: paths.newSale.path, Component: NewSalePage },
      { path: paths.subscriber.path, element: <h1>Subscriber screen</h1> },
    ],
    { initialEntries: [path] },
  );
  const result = render(
    <AppProvider env="test">
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { user, router, ...result };
}
