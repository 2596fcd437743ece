import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { referenceListQueryOptions, useReferenceItems } from '../../../entities/reference-lists/index.ts';
import { notifyError } from '../../../lib/notify.ts';
import { subscriberQueryOptions } from '../api/get-subscriber.ts';
import type { SubscriberLookups } from '../subscriber-form-values.ts';
import { SubscriberForm } from './subscriber-form.tsx';

type SubscriberScreenProps = {
  /** The subscriber's id, or `'new'` for a new record. */
  id: number | 'new';
};

/**
 * The subscriber screen (part 2 §2 routes, §2.2): loads the record (a blank one for a new subscriber,
 * added by the signed-in user) and the lookup lists before showing the form; when the subscriber does
 * not exist (or was deleted) it says so and goes to the subscribers list.
 */
export function SubscriberScreen({ id }: SubscriberScreenProps) {
  const record = useQuery(subscriberQueryOptions(id));
  const currencies = useQuery(referenceListQueryOptions('currencies'));
  const lookups: SubscriberLookups = {
    categories: useReferenceItems('cats'),
    subscriptionTypes: useReferenceItems('subs'),
    currencies: useReferenceItems('currencies'),
    tags: useReferenceItems('tags'),
    countries: useReferenceItems('ctries'),
    paymentMethods: useReferenceItems('pmethods'),
  };

  useEffect(() => {
    if (record.isError) notifyError('getting the subscriber');
  }, [record.isError]);

  if (record.isError) return <Navigate to={paths.subscribers.href()} replace />;
  // The currencies are needed before the form starts: a new subscriber's currency is preselected.
  if (record.isPending || currencies.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading..." />
      </Center>
    );
  }
  return <SubscriberForm subscriber={record.data} lookups={lookups} />;
}
