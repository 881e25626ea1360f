/**
 * Result files, written on demand from the stored score: the MusicXML
 * writers embed the model version, the thumbnail is the stored PNG of the
 * first page. Filenames come from the resolved title, as the service's
 * `Content-Disposition` does.
 */
import { OmrError } from '../errors.js';
import { writeMidi } from '../exports/midi.js';
import { writeMusicXml } from '../exports/musicxml.js';
import { writeMxl } from '../exports/mxl.js';
import type { Score } from '../score/model.js';
import { EXPORT_CONTENT_TYPES, EXPORT_EXTENSIONS, EXPORT_FORMATS, type Download, type ExportFormat } from './types.js';

export interface ExportSource {
  score: Score;
  modelVersion?: string;
  /** PNG of the first input page; only recognised scores have one. */
  thumbnail?: Uint8Array;
}

export function isExportFormat(format: string): format is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(format);
}

export function writeExport(source: ExportSource, format: string): Download {
  if (!isExportFormat(format) || (format === 'thumbnail.png' && !source.thumbnail)) {
    throw new OmrError('OMR_FORMAT_NOT_AVAILABLE', `No ${JSON.stringify(format)} export exists here; available: ${availableFormats(source).join(', ')}.`);
  }
  const data =
    format === 'musicxml'
      ? new TextEncoder().encode(writeMusicXml(source.score, { modelVersion: source.modelVersion }))
      : format === 'mxl'
        ? writeMxl(source.score, { modelVersion: source.modelVersion })
        : format === 'midi'
          ? writeMidi(source.score)
          : source.thumbnail!;
  return { data, contentType: EXPORT_CONTENT_TYPES[format], filename: downloadName(source.score.credits.title, format) };
}

export function availableFormats(source: { thumbnail?: unknown }): ExportFormat[] {
  return EXPORT_FORMATS.filter((format) => format !== 'thumbnail.png' || source.thumbnail);
}

/** "Sonata in A major, K. 331" → "Sonata in A major, K. 331.musicxml"; characters no file system takes are replaced. */
export function downloadName(title: string | undefined, format: ExportFormat): string {
  const base =
    (title ?? '')
      .normalize('NFC')
      .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+|\.+$/g, '')
      .slice(0, 120)
      .trim() || 'score';
  return `${base}.${EXPORT_EXTENSIONS[format]}`;
}
