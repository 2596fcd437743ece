import { fillTemplate, type TemplateValues } from '@back-office/contract/email-templates';
import LinkifyIt from 'linkify-it';

const linkify = new LinkifyIt();

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `value` safe inside HTML text and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** One line of text as HTML: escaped, with its web and email addresses made links. */
function lineToHtml(line: string): string {
  const matches = linkify.match(line) ?? [];
  let html = '';
  let last = 0;
  for (const match of matches) {
    html += escapeHtml(line.slice(last, match.index));
    html += `<a href="${escapeHtml(match.url)}">${escapeHtml(match.text)}</a>`;
    last = match.lastIndex;
  }
  return html + escapeHtml(line.slice(last));
}

/**
 * The HTML part of an email written as plain text: every character escaped (a subscriber's name or a
 * template cannot inject markup), blank lines separate paragraphs, single line breaks are kept as
 * `<br>`, and `https://…`, `www.…` and email addresses become links. A whole French document.
 */
export function textToHtml(text: string): string {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map(
      (paragraph) =>
        `<p style="margin: 0 0 1em;">${paragraph.split('\n').map(lineToHtml).join('<br>\n')}</p>`,
    );
  return `<!doctype html>
<html lang="fr">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #1f2933;">
${paragraphs.join('\n')}
</body>
</html>
`;
}

/** A subject on one line (a newline in a header would break the message). */
export function oneLine(subject: string): string {
  return subject.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}

/** An email to a subscriber ready for the outbox: subject, text and the HTML rendered from the text. */
export type ComposedEmail = { subject: string; text: string; html: string };

/**
 * Fills a subject and a text template with `values` (see {@link fillTemplate}) and renders the HTML
 * part from the text; `footer`, already filled, is appended to the text after a blank line.
 */
export function composeEmail(
  { subject, text }: { subject: string; text: string },
  values: TemplateValues,
  footer?: string,
): ComposedEmail {
  const body = fillTemplate(text, values).trim();
  const full = footer ? `${body}\n\n${footer.trim()}` : body;
  return { subject: oneLine(fillTemplate(subject, values)), text: full, html: textToHtml(full) };
}
