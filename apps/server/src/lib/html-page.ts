/** Escapes text for HTML: `&`, `<`, `>`, `"` and `'`. */
export const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character,
  );

/**
 * A small public page, readable on a phone, not indexed: the pages people reach from a link without
 * signing in (unsubscribing, checking a receipt). `body` is HTML already escaped by the caller.
 */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="fr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
</head>
<body style="font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; color: #1f2933; background: #f7f7f8; margin: 0;">
<main style="max-width: 34rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.08); line-height: 1.5;">
${body}
</main>
</body>
</html>
`;
}
