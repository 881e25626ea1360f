/** Plain-text report of accuracy metrics: one row per category of documents and one for all. */
import { aggregate, type AggregateMetrics } from './evaluate.js';
import { ELEMENT_CLASSES, precision, recall } from './notation.js';

export interface ReportRow {
  category: string;
  metrics: AggregateMetrics;
  /** Mean recognition time per page; absent when not measured. */
  secondsPerPage?: number;
  pages: number;
}

const HEADERS = ['category', 'docs', 'pages', 'strict P', 'strict R', 'strict F1', 'loose F1', 'measure err', 'clef', 'key', 'time', 'staves', 'parts', 's/page'];

/**
 * A table with a row per category and a final `all` row. The `all` row
 * micro-averages the categories' counts (not their ratios), so large
 * categories weigh as much as their notes do; its s/page is the page-weighted
 * mean of the rows that were timed.
 */
export function formatTable(rows: readonly ReportRow[]): string {
  const lines = [...rows, allRow(rows)].map(cells);
  const widths = HEADERS.map((header, c) => Math.max(header.length, ...lines.map((line) => line[c]!.length)));
  const format = (line: readonly string[]) => line.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [format(HEADERS), rule, ...lines.slice(0, -1).map(format), rule, format(lines[lines.length - 1]!)].join('\n');
}

function allRow(rows: readonly ReportRow[]): ReportRow {
  const timed = rows.filter((row) => row.secondsPerPage !== undefined);
  const timedPages = timed.reduce((total, row) => total + row.pages, 0);
  const row: ReportRow = {
    category: 'all',
    metrics: aggregate(rows.map((r) => r.metrics)),
    pages: rows.reduce((total, r) => total + r.pages, 0),
  };
  if (timedPages > 0) row.secondsPerPage = timed.reduce((total, r) => total + r.secondsPerPage! * r.pages, 0) / timedPages;
  return row;
}

function cells({ category, metrics: m, secondsPerPage, pages }: ReportRow): string[] {
  return [
    category,
    String(m.documents),
    String(pages),
    ...[m.strict.precision, m.strict.recall, m.strict.f1, m.loose.f1, m.measures.error, m.clef.accuracy, m.key.accuracy, m.time.accuracy, m.staves.accuracy, m.parts.accuracy].map(
      (value) => value.toFixed(3),
    ),
    secondsPerPage === undefined ? '-' : secondsPerPage.toFixed(3),
  ];
}

const TEXT_HEADERS = ['text', 'docs', 'title', 'part names', 'lyric syllables', 'measure numbers'];

/**
 * The text metrics on their own (title exact match, part-name match, lyric
 * syllables, measure numbers as printed), one row per group of documents and condition, with the counts
 * behind each ratio.
 */
export function formatTextTable(rows: readonly ReportRow[]): string {
  const cell = (a: { matched: number; total: number; accuracy: number }) => (a.total ? `${a.accuracy.toFixed(3)} (${a.matched}/${a.total})` : '-');
  const lines = rows.map(({ category, metrics: m }) => [category, String(m.documents), cell(m.title), cell(m.partNames), cell(m.lyrics), cell(m.measureNumbers)]);
  const widths = TEXT_HEADERS.map((header, c) => Math.max(header.length, ...lines.map((line) => line[c]!.length)));
  const format = (line: readonly string[]) => line.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [format(TEXT_HEADERS), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

const NOTATION_HEADERS = ['notation', 'docs', 'pages', 'error rate', 'tie-merged F1', 'per-head F1', 'clef', 'key', 'time', 'staves', 'parts', 's/page'];

/**
 * What a musician reads: the notation error rate (edits over the symbols of
 * both scores), note F1 with tied notes merged as heard beside today's
 * per-head F1, and clef, key, time, staff and part agreement, one row per
 * group and a final `all` row micro-averaged over the groups' counts.
 */
export function formatNotationTable(rows: readonly ReportRow[]): string {
  const lines = [...rows, allRow(rows)].map(({ category, metrics: m, secondsPerPage, pages }) => [
    category,
    String(m.documents),
    String(pages),
    `${(m.notation.errorRate * 100).toFixed(1)} %`,
    m.tieMerged.f1.toFixed(3),
    m.strict.f1.toFixed(3),
    ...[m.clef.accuracy, m.key.accuracy, m.time.accuracy, m.staves.accuracy, m.parts.accuracy].map((v) => v.toFixed(3)),
    secondsPerPage === undefined ? '-' : secondsPerPage.toFixed(2),
  ]);
  return grid(NOTATION_HEADERS, lines, true);
}

/**
 * Precision and recall per element class, one column pair per group
 * (a condition, say), with the true count beside them so that a ratio over
 * three fermatas reads as what it is. A class no group holds is left out.
 */
export function formatElementTable(groups: readonly { label: string; metrics: AggregateMetrics }[]): string {
  const headers = ['element', ...groups.flatMap((g) => [`${g.label} P`, `${g.label} R`, 'n'])];
  const lines: string[][] = [];
  for (const cls of ELEMENT_CLASSES) {
    const counts = groups.map((g) => g.metrics.notation.elements[cls]);
    if (counts.every((c) => c.truth === 0 && c.predicted === 0)) continue;
    lines.push([cls, ...counts.flatMap((c) => [c.predicted ? precision(c).toFixed(3) : '-', c.truth ? recall(c).toFixed(3) : '-', String(c.truth)])]);
  }
  return grid(headers, lines, false);
}

function grid(headers: readonly string[], lines: readonly string[][], lastIsTotal: boolean): string {
  const widths = headers.map((header, c) => Math.max(header.length, ...lines.map((line) => line[c]!.length)));
  const format = (line: readonly string[]) => line.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const body = lines.map(format);
  return lastIsTotal
    ? [format(headers), rule, ...body.slice(0, -1), rule, body[body.length - 1]!].join('\n')
    : [format(headers), rule, ...body].join('\n');
}
