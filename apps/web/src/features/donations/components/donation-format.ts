import type { DonationListItem } from '@back-office/contract/donations';
import { formatMoney } from '../../../lib/format.ts';

/** An amount with its currency symbol in French format (part 2 §2.4, §9), e.g. `125,50 €`, `1 300,00 CHF`. */
export function formatDonationAmount(amount: number, symbol: string): string {
  return `${formatMoney(amount)} ${symbol}`;
}

/** Part 2 §8: "Donation for '{amount} ({symbol})' was deleted successfully!". */
export function donationDeletedMessage(
  donation: Pick<DonationListItem, 'amount' | 'currencySymbol'>,
): string {
  return `Donation for '${formatMoney(donation.amount)} (${donation.currencySymbol})' was deleted successfully!`;
}

/** A donation named for people in a message: `Jean Dupont, 125,50 € on 2025-03-01`. */
export function describeDonation(donation: DonationListItem): string {
  return `${donation.subscriberName}, ${formatDonationAmount(donation.amount, donation.currencySymbol)} on ${donation.dateAdded}`;
}
