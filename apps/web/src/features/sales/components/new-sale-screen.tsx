import { Center, Loader } from '@mantine/core';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useProducts } from '../../../entities/products/index.ts';
import { useNotifyReferenceListError, useReferenceList } from '../../../entities/reference-lists/index.ts';
import { ApiError } from '../../../lib/api-error.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useSaleSubscriber } from '../api/get-sale-subscriber.ts';
import { subscriberCurrencySymbol } from '../new-sale-model.ts';
import { NewSaleForm } from './new-sale-form.tsx';

/**
 * The New Sale screen of `newsale/{subscriberId}` (part 2 §2 routes, §2.6): the subscriber is loaded
 * first, with the products, countries and currencies; "if not found the user goes to sales" (another
 * failure says "Houston - there was a problem." first, §8). A list that fails to load says so (§8)
 * and the form opens without it.
 */
export function NewSaleScreen({ subscriberId }: { subscriberId: number }) {
  const subscriber = useSaleSubscriber(subscriberId);
  const products = useProducts();
  const countries = useReferenceList('ctries');
  const currencies = useReferenceList('currencies');
  const validId = Number.isInteger(subscriberId) && subscriberId > 0;

  useEffect(() => {
    if (subscriber.isError && !(subscriber.error instanceof ApiError && subscriber.error.status === 404)) {
      notifyError();
    }
  }, [subscriber.isError, subscriber.error]);
  useEffect(() => {
    if (products.isError) notifyError('getting the products');
  }, [products.isError]);
  useNotifyReferenceListError('ctries', countries.isError);
  useNotifyReferenceListError('currencies', currencies.isError);

  if (!validId || subscriber.isError) return <Navigate to={paths.sales.href()} replace />;
  if (subscriber.isPending || products.isPending || countries.isPending || currencies.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading..." />
      </Center>
    );
  }

  const countryList = countries.data ?? [];
  return (
    <NewSaleForm
      key={subscriber.data.id}
      subscriber={subscriber.data}
      countries={countryList}
      currencySymbol={subscriberCurrencySymbol(subscriber.data, currencies.data ?? [])}
      products={products.data ?? []}
    />
  );
}
