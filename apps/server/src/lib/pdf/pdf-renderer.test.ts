import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { pdfPages } from '../../../test/pdf-text.ts';
import { renderPdf } from './pdf-renderer.ts';

describe('renderPdf', () => {
  it('gives every document its own font subset while the parsed fonts are shared', async () => {
    const texts = ['Alpha reçu n° 1', 'Zébulon ŒUVRE Müller 125,50 €', 'Ärger — Øresund, Łódź'];
    const pdfs = await Promise.all(
      texts.map((text) => renderPdf({ content: [{ text }, { text: `${text} bold`, bold: true }] })),
    );
    // Rendered again after the others: a subset leaking between documents would lose glyphs here.
    pdfs.push(await renderPdf({ content: [{ text: texts[0] ?? '', italics: true }] }));
    const pages = await Promise.all(pdfs.map(async (pdf) => (await pdfPages(pdf))[0]));
    expect(pages[0]).toContain('Alpha reçu n° 1');
    expect(pages[1]).toContain('Zébulon ŒUVRE Müller 125,50 € bold');
    expect(pages[2]).toContain('Ärger — Øresund, Łódź');
    expect(pages[3]).toContain('Alpha reçu n° 1');
    for (const pdf of pdfs) expect(pdf.toString('latin1')).toContain('/FontFile2');
  });

  it('keeps the characters of glyphs that an earlier document only used inside composite glyphs', async () => {
    // Subsetting "Élodie Ü" asks fontkit for the E and the U as parts of É and Ü, with no character.
    // Bold italics: a font no other test of this file has used yet in this process.
    const style = { bold: true, italics: true };
    await renderPdf({ content: [{ text: 'Élodie Ü', ...style }] });
    const pdf = await renderPdf({ content: [{ text: 'MÜLLER ERNEST U', ...style }] });
    expect((await pdfPages(pdf))[0]).toContain('MÜLLER ERNEST U');
  });

  it('reuses words shaped by earlier documents and still reads each document back as written', async () => {
    // The second document takes "ÉTÉ" and "MÜLLER" already shaped from the first, and shapes the E
    // and the U that the first one's subset only had inside É and Ü.
    const first = await renderPdf({ content: [{ text: 'Reçu ÉTÉ MÜLLER Zoé', italics: true }] });
    const second = await renderPdf({ content: [{ text: 'ÉTÉ MÜLLER ETE MULLER Reçu', italics: true }] });
    const third = await renderPdf({ content: [{ text: 'Zoé Reçu', italics: true }] });
    expect((await pdfPages(first))[0]).toContain('Reçu ÉTÉ MÜLLER Zoé');
    expect((await pdfPages(second))[0]).toContain('ÉTÉ MÜLLER ETE MULLER Reçu');
    expect((await pdfPages(third))[0]).toContain('Zoé Reçu');
  });

  it('prints the thousands of French amounts with a space Roboto has, not a box', async () => {
    const amount = new Intl.NumberFormat('fr-FR', { minimumFractionDigits: 2 }).format(1234.5);
    expect(amount).toContain('\u202f');
    const [page] = await pdfPages(
      await renderPdf({ content: [{ text: `Total : ${amount} €` }, { table: { body: [[amount]] } }] }),
    );
    expect(page).toMatch(/^Total : 1[\u00a0 ]234,50 € 1[\u00a0 ]234,50$/);
  });

  it('writes one subset for documents whose text uses only common characters, and extends it for others', async () => {
    const first = await renderPdf({ content: [{ text: 'Zoé LEFÈVRE, 12,50 € reçus' }] });
    const second = await renderPdf({ content: [{ text: 'reçus 99 € — Ärger, Martin (ÉCOLE)' }] });
    const third = await renderPdf({ content: [{ text: 'Łódź Øresund reçus' }] });
    expect((await pdfPages(first))[0]).toBe('Zoé LEFÈVRE, 12,50 € reçus');
    expect((await pdfPages(second))[0]).toBe('reçus 99 € — Ärger, Martin (ÉCOLE)');
    expect((await pdfPages(third))[0]).toBe('Łódź Øresund reçus');
    // The font file: the largest stream of each document.
    const [a, b, c] = [first, second, third].map(largestStream);
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    // Deflated once, not twice: inflated, it is a TrueType file (fontkit writes the tag "true").
    expect(
      inflateSync(a ?? new Uint8Array())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('true');
  });
});

/** The bytes of the largest stream of a PDF (pdfkit writes `stream\n…\nendstream`). */
function largestStream(pdf: Buffer): Uint8Array {
  let largest: Uint8Array = new Uint8Array(0);
  let from = 0;
  for (;;) {
    const start = pdf.indexOf('stream\n', from);
    if (start < 0) return largest;
    const end = pdf.indexOf('\nendstream', start);
    const stream = pdf.subarray(start + 7, end);
    if (stream.length > largest.length) largest = stream;
    from = end + 10;
  }
}
