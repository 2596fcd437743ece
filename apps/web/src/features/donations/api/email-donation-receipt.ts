import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { donationsQueryKey } from './search-donations.ts';

const queuedSchema = z.object({ queued: z.number().int() });

/**
 * `GET /api/donations/email/{donationId}`: emails the donation's receipt to the donor as a PDF
 * attachment, through the outbox (part 2 §7 Donations). 400 `donations.donor_without_email` when the
 * donor has no address.
 */
export function emailDonationReceipt(donationId: number): Promise<{ queued: number }> {
  return apiRequest(`/api/donations/email/${donationId}`, { schema: queuedSchema });
}

/** Emails a receipt, then reloads the searches: the donation now shows its receipt number. */
export function useEmailDonationReceipt() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: emailDonationReceipt,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: donationsQueryKey }),
  });
}
