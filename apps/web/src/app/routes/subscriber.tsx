import { Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { paths } from '../../config/paths.ts';
import { useMandates } from '../../features/mandates/api/get-mandates.ts';
import { MandatesSection } from '../../features/mandates/components/mandates-section.tsx';
import { PlansSection } from '../../features/plans/components/plans-section.tsx';
import { subscriberQueryKey } from '../../features/subscribers/api/get-subscriber.ts';
import { subscriberHistoryQueryOptions } from '../../features/subscribers/api/get-subscriber-history.ts';
import { SubscriberScreen } from '../../features/subscribers/components/subscriber-screen.tsx';

/** `subscriber/new` or `0` is a new record; otherwise a positive id. */
function parseSubscriberId(raw: string | undefined): number | 'new' | null {
  if (raw === 'new' || raw === '0') return 'new';
  if (!raw || !/^\d+$/.test(raw)) return null;
  return Number(raw);
}

/**
 * /subscriber/{id} and /subscriber/new: the subscriber screen (part 2 §2, §2.2), and below it, for a
 * saved subscriber, its SEPA mandates (docs/decisions/027) and its recurring gifts collected under them
 * (docs/decisions/028). A mandate written changes the record's RUM, IBAN and version: the record is
 * fetched again, and the form takes them (keeping unsaved edits). A plan written adds a history line.
 */
export function SubscriberRoute() {
  const id = parseSubscriberId(useParams().id);
  const queryClient = useQueryClient();
  if (id === null) return <Navigate to={paths.subscribers.href()} replace />;
  const handleMandatesChanged = (subscriberId: number) => {
    void queryClient.invalidateQueries({ queryKey: subscriberQueryKey(subscriberId) });
    void queryClient.invalidateQueries({ queryKey: subscriberHistoryQueryOptions(subscriberId).queryKey });
  };
  // A new key per subscriber: after creating one, its own page starts afresh.
  return (
    <Stack gap="xl" key={String(id)}>
      <SubscriberScreen id={id} />
      {id === 'new' ? null : (
        <>
          <MandatesSection subscriberId={id} onChanged={() => handleMandatesChanged(id)} />
          <SubscriberPlans subscriberId={id} onChanged={() => handleMandatesChanged(id)} />
        </>
      )}
    </Stack>
  );
}

/** The recurring gifts, given the subscriber's mandates (the query the mandates section shares). */
function SubscriberPlans({ subscriberId, onChanged }: { subscriberId: number; onChanged: () => void }) {
  const mandates = useMandates(subscriberId);
  return <PlansSection subscriberId={subscriberId} mandates={mandates.data ?? []} onChanged={onChanged} />;
}
