/** Validation against the official MusicXML 4.0 schema with Debian's xmllint, offline through the catalog. */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const XSD_DIR = resolve(import.meta.dirname, '../../../shared/musicxml-xsd');

/** Validates files in batches; returns xmllint's complaints (empty when all are valid). */
export function validateMusicXmlFiles(paths: string[]): string[] {
  const problems: string[] = [];
  for (let i = 0; i < paths.length; i += 50) {
    const batch = paths.slice(i, i + 50);
    const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', `${XSD_DIR}/musicxml.xsd`, ...batch], {
      env: { ...process.env, XML_CATALOG_FILES: `${XSD_DIR}/catalog.xml` },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.error) throw new Error(`xmllint could not run (${run.error.message}); install Debian's libxml2-utils.`);
    for (const line of run.stderr.split('\n')) {
      if (line.trim() && !line.endsWith(' validates')) problems.push(line);
    }
  }
  return problems;
}
