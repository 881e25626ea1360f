/**
 * A title page, as printed scores often open with one: the title, subtitle
 * and composer set alone on an A4 page by LilyPond, to be put in front of an
 * engraved score (`pdfunite`), so that the music starts on page 2.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Credits } from '../../src/score/model.js';

/** LilyPond string literal. */
function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** The LilyPond source of a title page: no music, the credits centred in the upper third. */
export function titlePageSource(credits: Credits): string {
  const lines = [
    credits.title && `\\fill-line { \\abs-fontsize #28 \\bold ${quoted(credits.title)} }`,
    credits.subtitle && `\\fill-line { \\abs-fontsize #16 ${quoted(credits.subtitle)} }`,
    credits.composer && `\\fill-line { \\abs-fontsize #16 \\italic ${quoted(credits.composer)} }`,
  ].filter(Boolean);
  return [
    '\\version "2.24.0"',
    '\\paper { #(set-paper-size "a4") print-page-number = ##f tagline = ##f }',
    '\\header { tagline = ##f }',
    `\\markup { \\column { \\vspace #12 ${lines.join(' \\vspace #3 ')} } }`,
    '',
  ].join('\n');
}

/** Writes `<work>/with-title.pdf`: the title page, then every page of `<work>/<score>`. */
export function prependTitlePage(credits: Credits, work: string, score: string): string {
  writeFileSync(join(work, 'title.ly'), titlePageSource(credits));
  const options = { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'], timeout: 120_000 };
  execFileSync('lilypond', ['-dno-point-and-click', '-o', 'title', 'title.ly'], options);
  execFileSync('pdfunite', ['title.pdf', score, 'with-title.pdf'], options);
  return join(work, 'with-title.pdf');
}
