import { type BankAccount, isQrIban } from '@back-office/contract/settings';
import { calculateQRReferenceChecksum, calculateSCORReferenceChecksum } from 'swissqrbill/utils';

/** What an invoice is paid with, fixed when it is issued: the reference and the account it quotes. */
export type InvoicePayment = { reference: string; iban: string | null };

/**
 * The QR reference of invoice `saleRef` (SIX QR-bill implementation guidelines v2.3, 3.4: 27 digits,
 * the last a modulo 10 recursive check digit): the reference left-padded with zeros to 26 digits.
 */
export function qrReference(saleRef: number): string {
  const body = String(saleRef).padStart(26, '0');
  return `${body}${calculateQRReferenceChecksum(body)}`;
}

/**
 * The ISO 11649 creditor reference of invoice `saleRef`: `RF`, two check digits (mod 97-10), then the
 * reference (`RF18 539` style, written without spaces).
 */
export function creditorReference(saleRef: number): string {
  const body = String(saleRef);
  return `RF${calculateSCORReferenceChecksum(body)}${body}`;
}

/**
 * The payment reference and account of an invoice of `saleRef` in currency `currencyIso` (ISO 4217),
 * from the settings' `accounts` (docs/decisions/031): the account of that currency; a QR reference
 * when it is a Swiss QR-IBAN (which only takes those), else an RF creditor reference, which any bank
 * transfer can quote. `iban` is null when no account is set for the currency.
 */
export function invoicePaymentFor(
  saleRef: number,
  currencyIso: string | null,
  accounts: readonly BankAccount[],
): InvoicePayment {
  const account = accounts.find((candidate) => candidate.currency === currencyIso);
  if (account && isQrIban(account.iban)) return { reference: qrReference(saleRef), iban: account.iban };
  return { reference: creditorReference(saleRef), iban: account?.iban ?? null };
}
