import { describe, expect, it } from 'vitest';
import { isDonationProduct } from './products.service.ts';

describe('isDonationProduct', () => {
  it.each(['Dons', 'Don', 'DONS', 'dons', ' Dôn ', 'DÔNS'])('knows %j as the donation product', (name) => {
    expect(isDonationProduct(name)).toBe(true);
  });

  it.each(['Donation', 'Dons et legs', 'Agenda', 'Do', ''])('knows %j as goods', (name) => {
    expect(isDonationProduct(name)).toBe(false);
  });
});
