import type { AuditEvent } from '@back-office/contract/audit';
import { describe, expect, it } from 'vitest';
import { auditSearchParams, EMPTY_AUDIT_FILTERS } from './api/search-audit-events.ts';
import { auditChangeLines, auditEntityKindText, auditFieldLabel, auditValueText } from './audit-format.ts';

const settingsSaved: AuditEvent = {
  id: 3,
  occurredAt: '2026-03-07T09:05:00.000Z',
  actor: { id: 1, name: 'Ada Admin', email: 'admin@example.org' },
  entityType: 'settings',
  entityList: null,
  entityId: 1,
  entityLabel: 'Organisation settings',
  action: 'updated',
  before: { address: '', logo: null, futureField: 'a' },
  after: {
    address: '12 rue du Lac\n74200 Thonon-les-Bains',
    logo: 'PNG image, 70 bytes, SHA-256 0123456789ab',
    futureField: 'b',
  },
};

describe('audit texts', () => {
  it('reads values as people do: empty, yes/no, French numbers and prices', () => {
    expect(auditValueText('name', '')).toBe('(empty)');
    expect(auditValueText('logo', null)).toBe('(empty)');
    expect(auditValueText('active', false)).toBe('No');
    expect(auditValueText('currentStock', 12000).replace(/\s/g, ' ')).toBe('12 000');
    expect(auditValueText('swissPrice', 7).replace(/\s/g, ' ')).toBe('7,00');
  });

  it('labels known and unknown fields and names reference items by their list', () => {
    expect(auditFieldLabel('minStockAlert')).toBe('Min Stock');
    expect(auditFieldLabel('futureField')).toBe('Future field');
    expect(
      auditEntityKindText({ ...settingsSaved, entityType: 'reference_list_item', entityList: 'pmethods' }),
    ).toBe('Payment Method');
    expect(auditEntityKindText(settingsSaved)).toBe('Settings');
  });

  it('writes each changed field on one line, multi-line texts included', () => {
    expect(auditChangeLines(settingsSaved)).toEqual([
      'Address: (empty) → 12 rue du Lac / 74200 Thonon-les-Bains',
      'Logo: (empty) → PNG image, 70 bytes, SHA-256 0123456789ab',
      'Future field: a → b',
    ]);
  });

  it('sends only the filters given, dates as YYYY-MM-DD, then the page', () => {
    expect(Object.fromEntries(auditSearchParams(EMPTY_AUDIT_FILTERS, 51, 50))).toEqual({
      listfrom: '51',
      listlength: '50',
    });
    const query = auditSearchParams(
      { entityType: 'settings', actor: '  ada ', from: '2026-03-01', to: '2026-03-31' },
      1,
      50,
    );
    expect(query.toString()).toBe(
      'entityType=settings&actor=ada&from=2026-03-01&to=2026-03-31&listfrom=1&listlength=50',
    );
  });
});
