import { isQrIban } from '@back-office/contract/settings';
import { isQRReferenceValid, isSCORReferenceValid } from 'swissqrbill/utils';
import { describe, expect, it } from 'vitest';
import { creditorReference, invoicePaymentFor, qrReference } from './payment-reference.ts';

describe('payment references', () => {
  it('writes QR references of 27 digits whose last is the modulo 10 recursive check digit', () => {
    // Check digits worked out by hand with the guidelines' table (SIX QR-bill v2.3, annex B).
    expect(qrReference(1)).toBe('000000000000000000000000011');
    expect(qrReference(539)).toBe('000000000000000000000005391');
    for (const ref of [1, 42, 539, 99_999, 1_234_567])
      expect(isQRReferenceValid(qrReference(ref))).toBe(true);
    // The guidelines' example reference, 21 00000 00003 13947 14300 09017.
    expect(isQRReferenceValid('210000000003139471430009017')).toBe(true);
  });

  it('writes ISO 11649 creditor references with their mod 97-10 check digits', () => {
    // 539 + "RF00" as digits is 539271500, which is 0 mod 97: check digits 98 - 0.
    expect(creditorReference(539)).toBe('RF98539');
    for (const ref of [1, 42, 539, 99_999, 1_234_567])
      expect(isSCORReferenceValid(creditorReference(ref))).toBe(true);
    // ISO 11649's own example, RF18 5390 0754 7034.
    expect(isSCORReferenceValid('RF18539007547034')).toBe(true);
  });

  it('quotes a QR reference for a QR-IBAN, an RF reference for any other account or none', () => {
    const accounts = [
      { currency: 'CHF' as const, iban: 'CH4431999123000889012' },
      { currency: 'EUR' as const, iban: 'FR7630006000011234567890189' },
    ];
    expect(isQrIban('CH44 3199 9123 0008 8901 2')).toBe(true);
    expect(isQrIban('CH9300762011623852957')).toBe(false);
    expect(isQrIban('FR7630006000011234567890189')).toBe(false);
    expect(invoicePaymentFor(7, 'CHF', accounts)).toEqual({
      reference: qrReference(7),
      iban: 'CH4431999123000889012',
    });
    expect(invoicePaymentFor(7, 'EUR', accounts)).toEqual({
      reference: creditorReference(7),
      iban: 'FR7630006000011234567890189',
    });
    expect(invoicePaymentFor(7, 'GBP', accounts)).toEqual({ reference: creditorReference(7), iban: null });
    expect(invoicePaymentFor(7, null, [])).toEqual({ reference: creditorReference(7), iban: null });
  });
});
