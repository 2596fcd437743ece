/**
 * The reports of a benchmark run: one row per figure (suite, name, value, unit, goal, pass, baseline) for
 * the JSON, a Markdown report of one scale, and an SVG chart comparing the scales measured (200k and 1M),
 * written under bench/results/.
 */
import type { BenchRow } from './harness.ts';
import type { ScaleName } from './scale.ts';

/** One figure of the results file. */
export type FigureRow = {
  suite: string;
  name: string;
  value: number | null;
  unit: string;
  goal: string;
  pass: boolean;
  /** The reference measured in the same run (raw SQL, COPY, empty route or server), same unit. */
  baseline: { value: number; label: string } | null;
  /** Why the figure was not measured (suite skipped or failed). */
  note?: string;
};

/** The figure rows of a run's table lines. */
export function figureRows(rows: Array<BenchRow & { suite: string; skipped?: boolean }>): FigureRow[] {
  return rows.map((row) => ({
    suite: row.suite,
    name: row.figure,
    value: row.value,
    unit: row.unit,
    goal: row.goal,
    pass: row.passed,
    baseline: row.baseline ?? null,
    ...(row.value === null ? { note: row.measured } : {}),
  }));
}

const escapeCell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

const formatValue = (value: number | null, unit: string) =>
  value === null ? '-' : `${value.toLocaleString('en-GB', { maximumFractionDigits: 2 })} ${unit}`;

/** The Markdown report of one run: the machine, then one table line per figure with its baseline. */
export function markdownReport({
  scale,
  at,
  machine,
  postgres,
  rows,
  details,
}: {
  scale: ScaleName;
  at: string;
  machine: Record<string, unknown>;
  postgres: string | undefined;
  rows: FigureRow[];
  details: Array<BenchRow & { suite: string }>;
}): string {
  const failing = rows.filter((row) => !row.pass).length;
  const lines = [
    `# Benchmark at scale ${scale}`,
    '',
    `Run ${at}; ${String(machine.cpus)} CPUs (${String(machine.cpuModel)}), ${String(machine.memoryGb)} GB, Node ${String(machine.node)}; ${postgres ?? 'no PostgreSQL'}.`,
    `${rows.length - failing} of ${rows.length} figures meet their goal.`,
    '',
    '| Suite | Figure | Value | Baseline (same run) | Goal | Pass |',
    '| ----- | ------ | ----- | ------------------- | ---- | ---- |',
    ...rows.map((row) =>
      [
        '',
        row.suite,
        escapeCell(row.name),
        escapeCell(row.value === null ? (row.note ?? '-') : formatValue(row.value, row.unit)),
        row.baseline ? `${formatValue(row.baseline.value, row.unit)} (${row.baseline.label})` : '-',
        escapeCell(row.goal),
        row.pass ? 'pass' : '**FAIL**',
        '',
      ]
        .join(' | ')
        .trim(),
    ),
    '',
    '## Details',
    '',
    ...details.map((row) => `- ${row.suite}, ${escapeCell(row.figure)}: ${escapeCell(row.measured)}`),
    '',
  ];
  return lines.join('\n');
}

/**
 * A figure's name without what changes with the data (quoted values, numbers, counts in brackets), so
 * that the same figure is found in the results of both scales.
 */
export function figureKey(row: Pick<FigureRow, 'suite' | 'name'>): string {
  const name = row.name
    .replace(/"[^"]*"/g, '')
    .replace(/\([^)]*\)/g, '')
    .replace(/#?\d[\d,.\s]*/g, '#')
    .replace(/\s+/g, ' ')
    .trim();
  return `${row.suite}: ${name}`;
}

const escapeXml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/**
 * An SVG chart: for each figure measured at every scale given, one bar per scale (the longest bar is that
 * figure's largest value; units differ between figures), its value and baseline written beside it, red
 * when the goal is missed.
 */
export function comparisonSvg(scales: Array<{ scale: ScaleName; rows: FigureRow[] }>): string {
  const colours = ['#1c7ed6', '#e8590c', '#2f9e44'];
  const keyed = scales.map(({ scale, rows }) => ({
    scale,
    byKey: new Map(rows.filter((row) => row.value !== null).map((row) => [figureKey(row), row])),
  }));
  const keys = [...(keyed[0]?.byKey.keys() ?? [])].filter((key) =>
    keyed.every(({ byKey }) => byKey.has(key)),
  );
  const labelWidth = 560;
  const barWidth = 360;
  const barHeight = 14;
  const groupHeight = scales.length * (barHeight + 4) + 14;
  const top = 56;
  const height = top + keys.length * groupHeight + 20;
  const width = labelWidth + barWidth + 260;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>Benchmark figures by scale (${escapeXml(scales.map(({ scale }) => scale).join(' vs '))})</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="22" font-size="16" font-weight="bold">Benchmark figures by scale (${escapeXml(scales.map(({ scale }) => scale).join(' vs '))})</text>`,
    ...scales.map(
      ({ scale }, index) =>
        `<rect x="${10 + index * 110}" y="32" width="12" height="12" fill="${colours[index % colours.length]}"/><text x="${28 + index * 110}" y="43">${escapeXml(scale)}</text>`,
    ),
    `<text x="${10 + scales.length * 110}" y="43" fill="#c92a2a">red value: goal missed</text>`,
  ];
  keys.forEach((key, group) => {
    const y = top + group * groupHeight;
    const rows = keyed.map(({ byKey }) => byKey.get(key) as FigureRow);
    const largest = Math.max(...rows.map((row) => row.value ?? 0), Number.EPSILON);
    // The first scale's own words (quoted values, p95), without the counts that differ by scale.
    const first = rows[0] as FigureRow;
    const label = `${first.suite}: ${first.name.replace(/\s*\([^)]*\)/g, '')}`;
    const shown = label.length > 90 ? `${label.slice(0, 87)}…` : label;
    parts.push(`<text x="10" y="${y + 12}">${escapeXml(shown)}</text>`);
    rows.forEach((row, index) => {
      const barY = y + index * (barHeight + 4);
      const length = Math.max(1, Math.round(((row.value ?? 0) / largest) * barWidth));
      parts.push(
        `<rect x="${labelWidth}" y="${barY}" width="${length}" height="${barHeight}" fill="${colours[index % colours.length]}"/>`,
        `<text x="${labelWidth + length + 6}" y="${barY + 11}" fill="${row.pass ? '#212529' : '#c92a2a'}">${escapeXml(formatValue(row.value, row.unit))}${row.baseline ? escapeXml(` (${row.baseline.label} ${formatValue(row.baseline.value, row.unit)})`) : ''}</text>`,
      );
    });
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}
