import {
  type CreateDonation,
  type DonationListItem,
  donationListItemSchema,
} from '@back-office/contract/donations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { donationsQueryKey } from './search-donations.ts';

/** `POST /api/donations {subid, amount, donationDate, notes}` returns the donation item (part 2 §7 Donations). */
export function createDonation(input: CreateDonation): Promise<DonationListItem> {
  return apiRequest('/api/donations', {
    method: 'POST',
    body: {
      subid: input.subid,
      amount: input.amount,
      donationDate: input.donationDate,
      notes: input.notes,
    },
    schema: donationListItemSchema,
  });
}

/**
 * Creates a donation, then reloads the searches from the server (part 2 §4: "A created donation is
 * appended"; it lands at its date's place, newest first; no optimistic edit: nothing shows before the server accepted it).
 */
export function useCreateDonation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDonation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: donationsQueryKey }),
  });
}
