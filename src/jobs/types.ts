/**
 * The resources of the Music Recognition Service's `/v2` interface, field for
 * field: the local engine and the hosted-service adapter both speak them, so
 * a caller switches between the two without changing code.
 *
 * Open-ended values (statuses, steps, progress keys, formats) are typed as
 * the known members plus `string`, as the spec asks clients to keep a
 * generic fallback for members added later.
 */

export type JobStatus = 'draft' | 'processing' | 'awaitingInput' | 'done' | 'error' | 'canceled';
export type JobOutput = 'library' | 'musicxml';
export type InteractiveStep = 'details';

/** Progress keys, in pipeline order. */
export const PROGRESS_KEYS = ['OMR_QUEUED', 'OMR_DETECTING_STAVES', 'OMR_READING_NOTES', 'OMR_ASSEMBLING', 'OMR_CREATING_SCORE'] as const;
export type ProgressKey = (typeof PROGRESS_KEYS)[number] | 'OMR_PROCESSING_PAGE';

export interface JobProgress {
  /** 0 to 100. */
  percent: number;
  /** Localized text, e.g. "Reading notes (page 2 of 5)". */
  text: string;
  key: ProgressKey | (string & {});
  /** 1-based page being worked on, for the page keys. */
  current?: number;
  total?: number;
}

export const EXPORT_FORMATS = ['musicxml', 'mxl', 'midi', 'thumbnail.png'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  musicxml: 'application/vnd.recordare.musicxml+xml',
  mxl: 'application/vnd.recordare.musicxml',
  midi: 'audio/midi',
  'thumbnail.png': 'image/png',
};

/** File extension of each export, for download filenames. */
export const EXPORT_EXTENSIONS: Record<ExportFormat, string> = {
  musicxml: 'musicxml',
  mxl: 'mxl',
  midi: 'mid',
  'thumbnail.png': 'png',
};

export type ResolvedConfidence = 'high' | 'medium' | 'low';

export interface DetailsInstrument {
  /** Part index, 0-based. */
  index: number;
  partName: string;
  /** Dotted `<group>.<instrument>`. */
  instrumentId: string;
  instrumentName: string;
  /** General MIDI program, 0–127. */
  midiProgram: number;
  resolvedConfidence: ResolvedConfidence;
}

export interface DetailsStepData {
  step: 'details';
  title: string;
  instruments: DetailsInstrument[];
}

export interface PendingStep {
  step: InteractiveStep | (string & {});
  data: DetailsStepData;
}

export interface InstrumentOverride {
  index: number;
  instrumentId?: string;
  midiProgram?: number;
  partName?: string;
  /** Pitch class the part is written in, e.g. `Bb`, `A`, `F`, `Eb`; `C` for concert pitch. */
  transposeKey?: string;
}

export interface DetailsSubmission {
  step: 'details' | (string & {});
  title?: string;
  mainLanguage?: string;
  instruments?: InstrumentOverride[];
}

export interface JobRetention {
  /** Fixed at creation: creation + `retentionDays`. */
  expiryDate: string;
  /** When files and results were erased. */
  expiredDate?: string;
}

export interface JobResult {
  exports: (ExportFormat | (string & {}))[];
  /** Library score identifier, for `output: library`. */
  score?: string;
  /**
   * What a person should know about the reading, one sentence each: pages skipped because they hold
   * no music, pages turned upright. Absent when there is nothing to say. (An addition to the
   * service's job resource; clients that do not know it ignore it.)
   */
  warnings?: string[];
}

/** The job resource, exactly as the service returns it. */
export interface Job {
  id: string;
  status: JobStatus | (string & {});
  output: JobOutput;
  interactiveSteps: (InteractiveStep | (string & {}))[];
  locales: string[];
  creationDate: string;
  currentStep?: string;
  pendingStep?: PendingStep;
  estimatedCredits?: number;
  progress?: JobProgress;
  result?: JobResult;
  errorCode?: string;
  errorMessage?: string;
  retention?: JobRetention;
}

export interface JobFileInput {
  /** Base64 string, bytes, or a Blob. */
  file: string | Uint8Array | ArrayBuffer | Blob;
  filename?: string;
  mimeType?: string;
}

export interface CreateJobBody {
  output?: JobOutput;
  interactiveSteps?: string[];
  locales?: string[];
  collection?: string;
  idempotencyKey?: string;
  autoStart?: boolean;
  files?: JobFileInput[];
}

export interface AddFileResult {
  fileIndex: number;
  fileCount: number;
}

export interface ListJobsQuery {
  status?: string;
  expired?: boolean;
  cursor?: string;
  /** Page size, 1 to 100 (default 20). */
  limit?: number;
}

export interface JobPage {
  jobs: Job[];
  /** Cursor of the next page; absent on the last. */
  nextCursor?: string;
}

/** A downloaded file. */
export interface Download {
  data: Uint8Array;
  contentType: string;
  filename: string;
}

export interface LocaleDetails {
  code: string;
  /** English display name. */
  name: string;
}

export interface Capabilities {
  locales: string[];
  localesDetails: LocaleDetails[];
  maxPages: number;
  maxFileSize: number;
  retentionDays?: number;
  costPerPage?: number;
  remainingCredits?: number;
}

export type TaskState = 'created' | 'blocked' | 'doing' | 'done' | 'canceled' | 'error';
export const TERMINAL_TASK_STATES: readonly TaskState[] = ['done', 'canceled', 'error'];

export interface Task {
  id: string;
  type: 'import-omr' | 'export' | (string & {});
  state: TaskState | (string & {});
  progress: { percent: number };
  score?: string;
  revision?: string;
  creationDate: string;
  doneDate?: string;
  result?: { error?: string; url?: string };
}

export interface ImportScoreBody {
  title?: string;
  filename?: string;
  /** Base64 for binary data. */
  data: string | Uint8Array | ArrayBuffer | Blob;
  dataEncoding?: 'base64';
  supportsTasks?: boolean;
}

/** `importScore` answers like the service: 200 with the score, or 202 with a task. */
export type ImportScoreResult =
  | { status: 200; score: LibraryScore; revision: string; revisionDate: string }
  | { status: 202; task: Task };

export interface ScoreRevisionInfo {
  id: string;
  creationDate: string;
}

/** A score in the library. */
export interface LibraryScore {
  id: string;
  title: string;
  creationDate: string;
  /** Identifier of the newest revision. */
  revision: string;
  revisions: ScoreRevisionInfo[];
  /** The job that created it, for scores from OMR. */
  job?: string;
}
