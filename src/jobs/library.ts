/**
 * The local score library: what a job with `output: library` and a score
 * import create. A score keeps every revision; an export of a revision is a
 * task, as on the service, whose `result.url` is a `data:` URL — fetchable
 * in browsers and in Node, and needing no server.
 */
import { OmrError } from '../errors.js';
import type { Score } from '../score/model.js';
import type { Store } from '../storage/store.js';
import type { ScoreText } from '../workers/parse-api.js';
import { encodeBase64 } from './file-input.js';
import { writeExport } from './exports.js';
import type { LibraryScore, Task } from './types.js';

/** Formats a library score exports to. */
export const SCORE_EXPORT_FORMATS = ['musicxml', 'mxl', 'midi'] as const;

export interface CreatedScore {
  score: LibraryScore;
  revision: string;
  revisionDate: string;
}

export class ScoreLibrary {
  constructor(
    private readonly store: Store,
    private readonly newId: (prefix: string) => string,
    private readonly now: () => string,
  ) {}

  async create(score: Score, options: { job?: string; modelVersion?: string } = {}): Promise<CreatedScore> {
    const created = this.entry(score.credits.title, options.job);
    const { id, revision, creationDate } = created;
    await this.store.put('revisions', `${id}:${revision}`, { score, creationDate, ...(options.modelVersion ? { modelVersion: options.modelVersion } : {}) });
    return this.stored(created);
  }

  /**
   * Creates a score from its JSON text (`ScoreText`, as the parse worker gives it): the revision is
   * written around the text, so a large score is never parsed or serialised on this thread.
   */
  async createFromText(score: ScoreText): Promise<CreatedScore> {
    const created = this.entry(score.title);
    const { id, revision, creationDate } = created;
    await this.store.putJson('revisions', `${id}:${revision}`, `{"score":${score.json},"creationDate":${JSON.stringify(creationDate)}}`);
    return this.stored(created);
  }

  /** A new score's library entry, with its first revision's id and date. */
  private entry(title: string | undefined, job?: string): LibraryScore {
    const id = this.newId('score');
    const revision = this.newId('rev');
    const creationDate = this.now();
    return { id, title: title || 'Untitled score', creationDate, revision, revisions: [{ id: revision, creationDate }], ...(job ? { job } : {}) };
  }

  /** Stores the entry once its revision is stored, and answers with it. */
  private async stored(entry: LibraryScore): Promise<CreatedScore> {
    await this.store.put('scores', entry.id, entry);
    return { score: entry, revision: entry.revision, revisionDate: entry.creationDate };
  }

  /** Removes a score that must not exist after all (its job was canceled as it was created), revisions first. */
  async discard(id: string): Promise<void> {
    for (const key of await this.store.keys('revisions', `${id}:`)) await this.store.delete('revisions', key);
    await this.store.delete('scores', id);
  }

  async get(id: string): Promise<LibraryScore> {
    const entry = await this.store.get('scores', id);
    if (!entry) throw new OmrError('SCORE_NOT_FOUND', `No score ${JSON.stringify(id)} exists in the library.`);
    return entry;
  }

  /** Exports a revision at once and records the finished task. */
  async exportTask(scoreId: string, revision: string, format: string): Promise<Task> {
    await this.get(scoreId);
    const stored = await this.store.get('revisions', `${scoreId}:${revision}`);
    if (!stored) throw new OmrError('SCORE_NOT_FOUND', `Score ${scoreId} has no revision ${JSON.stringify(revision)}.`);
    if (!(SCORE_EXPORT_FORMATS as readonly string[]).includes(format)) {
      throw new OmrError('INVALID_ARGUMENT', `Scores export to ${SCORE_EXPORT_FORMATS.join(', ')}; ${JSON.stringify(format)} is not one of them.`);
    }
    const file = writeExport({ score: stored.score, modelVersion: stored.modelVersion }, format);
    const date = this.now();
    const task: Task = {
      id: this.newId('task'),
      type: 'export',
      state: 'done',
      progress: { percent: 100 },
      score: scoreId,
      revision,
      creationDate: date,
      doneDate: date,
      result: { url: `data:${file.contentType};base64,${encodeBase64(file.data)}` },
    };
    await this.store.put('tasks', task.id, { task });
    return task;
  }
}
