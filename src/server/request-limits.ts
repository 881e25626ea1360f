/**
 * Bounds on every field of a request body, checked at the HTTP boundary
 * before the engine sees the body: a caller cannot make the server keep
 * arbitrarily much per request (five million `locales` would be kept with
 * the job), and each refusal names the field and its limit.
 *
 * | Endpoint                              | Field                        | Limit                                               |
 * |---------------------------------------|------------------------------|-----------------------------------------------------|
 * | every JSON body                       | (the body)                   | a JSON object (not an array, string or number)      |
 * | every JSON body                       | keys of any object           | {@link MAX_OBJECT_KEYS} (32)                        |
 * | `POST /omr/jobs/{job}/steps/{step}`   | (the body)                   | {@link MAX_JSON_BODY_BYTES} (64 KiB)                |
 * | bodies that carry a file              | (the body)                   | `limits.maxBodyBytes` (one 25 MiB file in Base64 + 64 KiB); 413 `FILE_TOO_LARGE` |
 * | `POST /omr/jobs`                      | `output`                     | string, {@link MAX_OUTPUT_CHARS} (16) characters    |
 * |                                       | `interactiveSteps`           | {@link MAX_INTERACTIVE_STEPS} (8) strings of {@link MAX_STEP_CHARS} (32) |
 * |                                       | `locales`                    | {@link MAX_LOCALES} (100) strings of {@link MAX_LOCALE_CHARS} (35) |
 * |                                       | `collection`                 | string, {@link MAX_ID_CHARS} (255) characters       |
 * |                                       | `idempotencyKey`             | string, {@link MAX_ID_CHARS} (255) characters       |
 * |                                       | `autoStart`                  | boolean                                             |
 * |                                       | `files`                      | {@link MAX_FILES} (200) items, each a file (below)  |
 * | a file (`POST /omr/jobs` `files[i]`, `POST /omr/jobs/{job}/files`) | `file` | Base64 string; decoded at most `maxFileSize` (25 MiB), else 413 `FILE_TOO_LARGE` |
 * |                                       | `filename`                   | string, {@link MAX_FILENAME_BYTES} (255) UTF-8 bytes |
 * |                                       | `mimeType`                   | string, {@link MAX_MIME_TYPE_CHARS} (255) characters |
 * | `POST /omr/jobs/{job}/steps/details`  | `step`                       | string, {@link MAX_STEP_CHARS} (32) characters      |
 * |                                       | `title`                      | string, {@link MAX_TITLE_CHARS} (512) characters    |
 * |                                       | `mainLanguage`               | string, {@link MAX_LOCALE_CHARS} (35) characters    |
 * |                                       | `instruments`                | {@link MAX_INSTRUMENTS} (256) overrides (below)     |
 * | an override (`instruments[i]`)        | `index`                      | integer                                             |
 * |                                       | `instrumentId`               | string, {@link MAX_INSTRUMENT_ID_CHARS} (128) characters |
 * |                                       | `midiProgram`                | number (0 to 127 is checked by the engine)          |
 * |                                       | `partName`                   | string, {@link MAX_PART_NAME_CHARS} (256) characters |
 * |                                       | `transposeKey`               | string, {@link MAX_TRANSPOSE_KEY_CHARS} (8) characters |
 * | `POST /scores`                        | `title`                      | string, {@link MAX_TITLE_CHARS} (512) characters    |
 * |                                       | `filename`                   | string, {@link MAX_FILENAME_BYTES} (255) UTF-8 bytes |
 * |                                       | `data`                       | as a file's `file`                                  |
 * |                                       | `dataEncoding`               | string, {@link MAX_OUTPUT_CHARS} (16) characters    |
 * |                                       | `supportsTasks`              | boolean                                             |
 *
 * Beyond a limit, or with the wrong type, the answer is 400
 * `INVALID_ARGUMENT` naming the field (`files[3].filename`) and its limit.
 * Fields the spec does not define are ignored, as the engine does, but
 * count towards {@link MAX_OBJECT_KEYS}. Values within the limits are
 * checked further by the engine (a known `output`, BCP 47 `locales`…).
 */
import { OmrError } from '../errors.js';

/** Largest body of an endpoint that takes no file: a details submission of every part is a few KiB. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;
/** Keys of any one object in a body: the spec's objects have at most 7, so more is not a client of this interface. */
export const MAX_OBJECT_KEYS = 32;
/** `output` and `dataEncoding`: enumerations whose longest member is 8 characters. */
export const MAX_OUTPUT_CHARS = 16;
/** A step name (`details`). */
export const MAX_STEP_CHARS = 32;
/** Steps in `interactiveSteps`: one exists today; room for the spec to add some. */
export const MAX_INTERACTIVE_STEPS = 8;
/** Languages in `locales`: the service supports 65, and unsupported codes are accepted. */
export const MAX_LOCALES = 100;
/** A BCP 47 tag: RFC 5646 §4.4.1 asks implementations to take tags of at least 35 characters. */
export const MAX_LOCALE_CHARS = 35;
/** Identifiers chosen by the caller (`collection`, `idempotencyKey`). */
export const MAX_ID_CHARS = 255;
/** Files in one `POST /omr/jobs`: each is at least a page, and a job holds 200 pages by default. */
export const MAX_FILES = 200;
/** A filename, as most file systems allow. */
export const MAX_FILENAME_BYTES = 255;
/** A MIME type: RFC 6838 allows 127 characters for each of type and subtype. */
export const MAX_MIME_TYPE_CHARS = 255;
/** A work title. */
export const MAX_TITLE_CHARS = 512;
/** Overrides in one details submission: more parts than any orchestral score has. */
export const MAX_INSTRUMENTS = 256;
/** A dotted `<group>.<instrument>` identifier. */
export const MAX_INSTRUMENT_ID_CHARS = 128;
/** A part name as printed. */
export const MAX_PART_NAME_CHARS = 256;
/** A pitch class such as `Bb` or `Eb`. */
export const MAX_TRANSPOSE_KEY_CHARS = 8;

/** The body shape an endpoint takes, for {@link checkRequestBody}. */
export type BodyKind = 'createJob' | 'addFile' | 'details' | 'importScore';

/**
 * Refuses a parsed body that breaks a limit of the table above; `undefined`
 * (no body) passes, for the engine to judge.
 */
export function checkRequestBody(kind: BodyKind, body: unknown): void {
  if (body === undefined) return;
  const root = object(body, 'The request body');
  switch (kind) {
    case 'createJob':
      return checkCreateJob(root);
    case 'addFile':
      return checkFile(root, '');
    case 'details':
      return checkDetails(root);
    case 'importScore':
      return checkImport(root);
  }
}

function checkCreateJob(body: Record<string, unknown>): void {
  text(body, 'output', MAX_OUTPUT_CHARS);
  list(body, 'interactiveSteps', MAX_INTERACTIVE_STEPS, (item, at) => textValue(item, at, MAX_STEP_CHARS));
  list(body, 'locales', MAX_LOCALES, (item, at) => textValue(item, at, MAX_LOCALE_CHARS));
  text(body, 'collection', MAX_ID_CHARS);
  text(body, 'idempotencyKey', MAX_ID_CHARS);
  flag(body, 'autoStart');
  list(body, 'files', MAX_FILES, (item, at) => checkFile(object(item, at), `${at}.`));
}

function checkFile(file: Record<string, unknown>, prefix: string): void {
  if (file.file !== undefined && typeof file.file !== 'string') throw invalid(`${prefix}file must be a Base64 string.`);
  text(file, 'filename', MAX_FILENAME_BYTES, prefix, 'bytes');
  text(file, 'mimeType', MAX_MIME_TYPE_CHARS, prefix);
}

function checkDetails(body: Record<string, unknown>): void {
  text(body, 'step', MAX_STEP_CHARS);
  text(body, 'title', MAX_TITLE_CHARS);
  text(body, 'mainLanguage', MAX_LOCALE_CHARS);
  list(body, 'instruments', MAX_INSTRUMENTS, (item, at) => {
    const override = object(item, at);
    if (override.index !== undefined && !Number.isInteger(override.index)) throw invalid(`${at}.index must be an integer (the part's 0-based index).`);
    text(override, 'instrumentId', MAX_INSTRUMENT_ID_CHARS, `${at}.`);
    if (override.midiProgram !== undefined && typeof override.midiProgram !== 'number') throw invalid(`${at}.midiProgram must be a number from 0 to 127.`);
    text(override, 'partName', MAX_PART_NAME_CHARS, `${at}.`);
    text(override, 'transposeKey', MAX_TRANSPOSE_KEY_CHARS, `${at}.`);
  });
}

function checkImport(body: Record<string, unknown>): void {
  text(body, 'title', MAX_TITLE_CHARS);
  text(body, 'filename', MAX_FILENAME_BYTES, '', 'bytes');
  if (body.data !== undefined && typeof body.data !== 'string') throw invalid('data must be a Base64 string.');
  text(body, 'dataEncoding', MAX_OUTPUT_CHARS);
  flag(body, 'supportsTasks');
}

/** A JSON object (not an array or null) with at most {@link MAX_OBJECT_KEYS} keys. */
function object(value: unknown, label: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid(`${label} must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}.`);
  }
  const keys = Object.keys(value).length;
  if (keys > MAX_OBJECT_KEYS) throw invalid(`${label} has ${keys} fields; at most ${MAX_OBJECT_KEYS} are accepted.`);
  return value as Record<string, unknown>;
}

/** An optional string field of at most `max` characters (or UTF-8 bytes). */
function text(owner: Record<string, unknown>, field: string, max: number, prefix = '', unit: 'characters' | 'bytes' = 'characters'): void {
  if (owner[field] !== undefined) textValue(owner[field], `${prefix}${field}`, max, unit);
}

function textValue(value: unknown, label: string, max: number, unit: 'characters' | 'bytes' = 'characters'): void {
  if (typeof value !== 'string') throw invalid(`${label} must be a string of at most ${max} ${unit}.`);
  // Characters are UTF-16 code units, as JavaScript counts them; bytes are UTF-8, as a file system counts a name.
  const size = unit === 'bytes' ? Buffer.byteLength(value, 'utf8') : value.length;
  if (size > max) throw invalid(`${label} is ${size} ${unit} long; at most ${max} are accepted.`);
}

/** An optional array field of at most `max` items, each checked by `item`. */
function list(owner: Record<string, unknown>, field: string, max: number, item: (value: unknown, label: string) => void): void {
  const value = owner[field];
  if (value === undefined) return;
  if (!Array.isArray(value)) throw invalid(`${field} must be an array of at most ${max} items.`);
  if (value.length > max) throw invalid(`${field} has ${value.length} items; at most ${max} are accepted.`);
  value.forEach((entry, i) => item(entry, `${field}[${i}]`));
}

function flag(owner: Record<string, unknown>, field: string): void {
  if (owner[field] !== undefined && typeof owner[field] !== 'boolean') throw invalid(`${field} must be true or false.`);
}

function invalid(message: string): OmrError {
  return new OmrError('INVALID_ARGUMENT', message);
}
