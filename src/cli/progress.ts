/**
 * Progress of `scoresight recognize` on stderr: on a terminal, one line
 * redrawn in place — a bar, page N of M, the stage, the time left; elsewhere
 * (a log, a CI job, a pipe) one plain line per page, since carriage returns
 * and escape codes would only clutter a file.
 */
import type { PageStage } from '../recognize/recognize-page.js';

/** Width of the bar, in characters. */
const BAR_WIDTH = 24;

/** Each stage as the progress line names it, and the share of a page's work done when it is reached. */
const STAGES: Record<PageStage, { label: string; done: number }> = {
  prepared: { label: 'page prepared', done: 0.15 },
  staves: { label: 'staves found', done: 0.3 },
  symbols: { label: 'symbols read', done: 0.85 },
  assembled: { label: 'assembled', done: 1 },
};

/** The time one page took, as the JSON summary reports it. */
export interface PageTiming {
  /** 1-based page of the document. */
  page: number;
  seconds: number;
  /** False for a page without staves, which is skipped. */
  music: boolean;
}

export interface ProgressOptions {
  /** Pages to recognise. */
  total: number;
  /** Redraw one line in place (a terminal) rather than write a line per page. */
  tty: boolean;
  /** Where progress goes; nothing is written without it (`--quiet`, `--json` off a terminal still times pages). */
  write?: (text: string) => void;
  /** Milliseconds, for the timings and the estimate. */
  now?: () => number;
}

export interface Progress {
  /** A page (0-based over the document) is about to be recognised. */
  startPage(page: number): void;
  stage(page: number, stage: PageStage): void;
  /** Recognition ended (or failed): the last page is closed and a terminal line cleared. */
  finish(): void;
  readonly timings: readonly PageTiming[];
}

export function createProgress({ total, tty, write, now = () => performance.now() }: ProgressOptions): Progress {
  const started = now();
  const timings: PageTiming[] = [];
  let current: { page: number; ordinal: number; since: number; music: boolean; done: number } | undefined;
  let ordinal = 0;
  let drawn = false;

  /** Closes the page being worked on, if any: its timing, and its plain line. */
  function close(): void {
    if (!current) return;
    const seconds = (now() - current.since) / 1000;
    timings.push({ page: current.page + 1, seconds: Math.round(seconds * 1000) / 1000, music: current.music });
    if (!tty && write) {
      const head = `page ${current.ordinal} of ${total}`;
      write(current.music ? `${head} done in ${seconds.toFixed(1)} s${left(current.ordinal) ?? ''}\n` : `${head}: no music found, skipped\n`);
    }
    current = undefined;
  }

  /** ", about N s left", from the pace so far; undefined until a page has finished. */
  function left(pagesDone: number): string | undefined {
    if (pagesDone <= 0 || pagesDone >= total) return undefined;
    const elapsed = (now() - started) / 1000;
    return `, about ${formatSeconds((elapsed / pagesDone) * (total - pagesDone))} left`;
  }

  function draw(label: string): void {
    if (!tty || !write || !current) return;
    const fraction = Math.min(1, (current.ordinal - 1 + current.done) / total);
    const filled = Math.round(fraction * BAR_WIDTH);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}]`;
    const estimate = fraction > 0 && fraction < 1 ? `about ${formatSeconds((((now() - started) / 1000) * (1 - fraction)) / fraction)} left` : 'estimating time left';
    write(`\r${bar} page ${current.ordinal} of ${total} · ${label} · ${estimate}\u001b[K`);
    drawn = true;
  }

  return {
    startPage(page) {
      close();
      current = { page, ordinal: ++ordinal, since: now(), music: false, done: 0 };
      draw('reading');
    },
    stage(page, stage) {
      if (current?.page !== page) return;
      current.done = STAGES[stage].done;
      draw(STAGES[stage].label);
      if (stage !== 'assembled') return;
      current.music = true;
      close();
    },
    finish() {
      close();
      if (drawn && write) write('\r\u001b[K');
      drawn = false;
    },
    timings,
  };
}

/** "8 s", "2 min 5 s". */
function formatSeconds(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
