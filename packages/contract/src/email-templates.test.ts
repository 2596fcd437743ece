import { describe, expect, it } from 'vitest';
import {
  DEFAULT_EMAIL_TEMPLATES,
  EMAIL_TEMPLATE_FIELDS,
  emailTemplateSchema,
  fillTemplate,
  placeholdersOf,
} from './email-templates.ts';

describe('email templates', () => {
  it('accept their own defaults', () => {
    for (const field of EMAIL_TEMPLATE_FIELDS) {
      expect(emailTemplateSchema(field, 10_000).safeParse(DEFAULT_EMAIL_TEMPLATES[field]).success).toBe(true);
    }
  });

  it('refuse a placeholder the template does not allow, naming it', () => {
    const result = emailTemplateSchema('brochureEmailSubject', 200).safeParse('Bonjour {prenom} {nom}');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Unknown placeholder {prenom}: use {title}, {firstName}, {lastName}, {organisationName}.',
      'Unknown placeholder {nom}: use {title}, {firstName}, {lastName}, {organisationName}.',
    ]);
  });

  it('need the unsubscribe link in the group email footer, empty meaning the default', () => {
    const footer = emailTemplateSchema('bulkEmailFooter', 2000);
    expect(footer.safeParse('Merci').error?.issues[0]?.message).toBe(
      'The footer must contain {unsubscribeLink}.',
    );
    expect(footer.safeParse('').success).toBe(true);
  });

  it('fill the placeholders, collapsing the spaces an empty value leaves', () => {
    expect(placeholdersOf('{a} {b} {a}')).toEqual(['a', 'b']);
    expect(
      fillTemplate('Bonjour {title} {firstName} {lastName},\n{other}', {
        title: '',
        firstName: 'Anne',
        lastName: 'Roux',
      }),
    ).toBe('Bonjour Anne Roux,\n{other}');
  });
});
