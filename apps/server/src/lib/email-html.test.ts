import { describe, expect, it } from 'vitest';
import { composeEmail, textToHtml } from './email-html.ts';

describe('textToHtml', () => {
  it('escapes every character that means something in HTML', () => {
    const html = textToHtml('Bonjour <script>alert("x")</script> & \'toi\'');
    expect(html).toContain('Bonjour &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;toi&#39;');
    expect(html).not.toContain('<script>');
  });

  it('makes paragraphs of blank-line separated blocks and keeps single line breaks', () => {
    const html = textToHtml('Bonjour Anne,\n\nMerci.\nÀ bientôt,\r\n\r\n\r\nClaire');
    expect(html).toContain('<p style="margin: 0 0 1em;">Bonjour Anne,</p>');
    expect(html).toContain('<p style="margin: 0 0 1em;">Merci.<br>\nÀ bientôt,</p>');
    expect(html).toContain('<p style="margin: 0 0 1em;">Claire</p>');
    expect(html).toMatch(/^<!doctype html>\n<html lang="fr">/);
  });

  it('links web and email addresses, without the punctuation after them', () => {
    const html = textToHtml(
      'Désinscription : https://exemple.org/unsubscribe?s=1&t=abc. Écrivez à contact@amis-leman.org',
    );
    expect(html).toContain(
      '<a href="https://exemple.org/unsubscribe?s=1&amp;t=abc">https://exemple.org/unsubscribe?s=1&amp;t=abc</a>.',
    );
    expect(html).toContain('<a href="mailto:contact@amis-leman.org">contact@amis-leman.org</a>');
  });
});

describe('composeEmail', () => {
  it('fills the templates, puts the subject on one line and appends the footer to text and HTML', () => {
    const email = composeEmail(
      { subject: 'Reçu {year}\nde {organisationName}', text: 'Bonjour {title} {firstName},\n\nMerci.' },
      { title: '', firstName: 'Anne', year: '2025', organisationName: 'Les Amis' },
      '--\nSe désinscrire : https://exemple.org/u',
    );
    expect(email.subject).toBe('Reçu 2025 de Les Amis');
    expect(email.text).toBe('Bonjour Anne,\n\nMerci.\n\n--\nSe désinscrire : https://exemple.org/u');
    expect(email.html).toContain('<a href="https://exemple.org/u">https://exemple.org/u</a>');
  });
});
