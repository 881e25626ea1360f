/**
 * The details review step: what recognition detected about each part
 * (name, instrument, General MIDI program) and how sure it is, and how a
 * caller's answer changes the score. Only the score's metadata changes, so
 * re-running "assembly and export" is applying this and writing the files.
 */
import { OmrError } from '../errors.js';
import { instrumentById, instrumentForProgram, matchInstrumentName, type Instrument } from '../score/instruments.js';
import type { Part, Score, Transposition } from '../score/model.js';
import type { DetailsInstrument, DetailsStepData, DetailsSubmission, InstrumentOverride, ResolvedConfidence } from './types.js';

/** The step data for a recognised score. */
export function detectDetails(score: Score): DetailsStepData {
  return {
    step: 'details',
    title: score.credits.title ?? '',
    instruments: score.parts.map((part, index) => detectInstrument(part, index)),
  };
}

/**
 * A part's instrument: from its printed name where one was read (as sure as
 * the name match), otherwise a guess from its staves — a braced grand staff
 * is most likely a keyboard (medium), a single staff could be anything (low).
 */
function detectInstrument(part: Part, index: number): DetailsInstrument {
  const match = matchInstrumentName(part.name);
  let instrument: Instrument;
  let confidence: ResolvedConfidence;
  if (match) {
    instrument = match.instrument;
    confidence = match.confidence;
  } else {
    instrument = instrumentById(part.instrumentId) ?? instrumentForProgram(part.midiProgram);
    confidence = part.staves === 2 && instrument.staves === 2 ? 'medium' : 'low';
  }
  return {
    index,
    partName: part.name,
    instrumentId: instrument.id,
    instrumentName: instrument.name,
    midiProgram: instrument.midiProgram,
    resolvedConfidence: confidence,
  };
}

/** Whether every part was resolved with high confidence, so the step resolves without asking. */
export function isResolved(details: DetailsStepData): boolean {
  return details.instruments.every((instrument) => instrument.resolvedConfidence === 'high');
}

/**
 * Checks a submission's fields before anything changes, so a bad request
 * leaves the job awaiting its step. Throws `INVALID_ARGUMENT` naming the field.
 */
export function validateSubmission(body: DetailsSubmission, partCount: number): void {
  if (body.title !== undefined && typeof body.title !== 'string') invalid('title must be a string');
  if (body.mainLanguage !== undefined && (typeof body.mainLanguage !== 'string' || !/^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$/.test(body.mainLanguage))) {
    invalid(`mainLanguage must be a BCP 47 language tag such as "de" or "pt-BR", got ${JSON.stringify(body.mainLanguage)}`);
  }
  if (body.instruments === undefined) return;
  if (!Array.isArray(body.instruments)) invalid('instruments must be an array of overrides');
  for (const override of body.instruments) {
    const at = `instruments[${JSON.stringify(override?.index)}]`;
    if (!Number.isInteger(override?.index) || override.index < 0 || override.index >= partCount) {
      invalid(`${at}: index must select one of the ${partCount} detected parts (0 to ${partCount - 1})`);
    }
    if (override.instrumentId !== undefined && !instrumentById(override.instrumentId)) {
      invalid(`${at}: unknown instrumentId ${JSON.stringify(override.instrumentId)}; use a dotted id such as "strings.violin"`);
    }
    if (override.midiProgram !== undefined && (!Number.isInteger(override.midiProgram) || override.midiProgram < 0 || override.midiProgram > 127)) {
      invalid(`${at}: midiProgram must be an integer from 0 to 127`);
    }
    if (override.partName !== undefined && typeof override.partName !== 'string') invalid(`${at}: partName must be a string`);
    if (override.transposeKey !== undefined && transpositionForKey(override.transposeKey) === null) {
      invalid(`${at}: transposeKey must be a pitch class such as "Bb", "A", "F", "Eb" or "C", got ${JSON.stringify(override.transposeKey)}`);
    }
  }
}

/** The reviewed score: the title and instrument overrides applied to the recognised one. */
export function applyDetails(score: Score, body: DetailsSubmission): Score {
  validateSubmission(body, score.parts.length);
  const overrides = new Map<number, InstrumentOverride>((body.instruments ?? []).map((o) => [o.index, o]));
  return {
    ...score,
    credits: body.title !== undefined ? { ...score.credits, title: body.title } : score.credits,
    parts: score.parts.map((part, index) => {
      const override = overrides.get(index);
      return override ? overridePart(part, override) : part;
    }),
  };
}

function overridePart(part: Part, override: InstrumentOverride): Part {
  const next: Part = { ...part };
  // instrumentId wins over midiProgram.
  const instrument =
    override.instrumentId !== undefined ? instrumentById(override.instrumentId) : override.midiProgram !== undefined ? instrumentForProgram(override.midiProgram) : undefined;
  if (instrument) {
    next.instrumentId = instrument.id;
    next.midiProgram = override.instrumentId === undefined && override.midiProgram !== undefined ? override.midiProgram : instrument.midiProgram;
    if (instrument.percussion) next.percussion = true;
    else delete next.percussion;
    if (instrument.transposition) next.transposition = instrument.transposition;
    else delete next.transposition;
    if (override.partName === undefined && !matchInstrumentName(part.name)) next.name = instrument.name;
  }
  if (override.partName !== undefined) next.name = override.partName;
  if (override.transposeKey !== undefined) {
    const transposition = transpositionForKey(override.transposeKey)!;
    if (transposition) next.transposition = transposition;
    else delete next.transposition;
  }
  return next;
}

/**
 * The transposition of an instrument "in" a key: the key is the sounding
 * pitch of a written C. Each key takes the interval of its most common
 * instruments — B♭ and A clarinets and trumpets sound below, E♭ alto
 * saxophone a major sixth below; keys up to a whole tone above C (D
 * trumpets and clarinets) sound above. An E♭ soprano clarinet needs its
 * instrument id. Returns undefined for C (concert pitch) and null
 * for text that is not a pitch class.
 */
export function transpositionForKey(key: string): Transposition | undefined | null {
  const m = /^\s*([A-Ga-g])\s*(#|♯|b|♭|is|es|s)?\s*$/.exec(key);
  if (!m) return null;
  const letter = m[1]!.toUpperCase();
  const alter = m[2] === undefined ? 0 : ['#', '♯', 'is'].includes(m[2]) ? 1 : -1;
  const naturals: Record<string, [number, number]> = { C: [0, 0], D: [1, 2], E: [2, 4], F: [3, 5], G: [4, 7], A: [5, 9], B: [6, 11] };
  let [diatonic, chromatic] = naturals[letter]!;
  chromatic += alter;
  if (diatonic === 0 && chromatic === 0) return undefined;
  // Sound below the written pitch: the interval down from C to the key.
  diatonic -= 7;
  chromatic -= 12;
  // Keys up to a whole tone above C sound above (D trumpet, C♯/D♭ rarely): the smaller interval.
  if (chromatic <= -10) {
    diatonic += 7;
    chromatic += 12;
  }
  return { diatonic, chromatic };
}

function invalid(message: string): never {
  throw new OmrError('INVALID_ARGUMENT', `Details submission: ${message}.`);
}
