import { describe, expect, it } from 'vitest';
import { repairVoice, voiceDuration, type TimedItem } from '../../src/assembly/measure-repair.js';
import { frac, toString } from '../../src/score/fraction.js';
import type { DurationType } from '../../src/score/model.js';
import { notatedDuration } from '../../src/score/timeline.js';

const item = (x: number, type: DurationType, dots = 0, isRest = false): TimedItem => ({ x, type, dots, isRest, duration: notatedDuration(type, dots) });

describe('measure repair', () => {
  it('makes a lone rest a whole-measure rest', () => {
    const voice = [item(10, 'whole', 0, true)];
    repairVoice(voice, frac(3), [], 12);
    expect(voice[0]!.measureRest).toBe(true);
    expect(toString(voice[0]!.duration)).toBe('3');
  });

  it('turns the three notes under a tuplet mark into a triplet, ignoring a stray mark', () => {
    const voice = [item(0, 'quarter'), item(20, 'eighth'), item(30, 'eighth'), item(40, 'eighth'), item(60, 'half')];
    repairVoice(voice, frac(4), [30, 200], 12);
    expect(voice.map((i) => i.tuplet?.actual ?? 0)).toEqual([0, 3, 3, 3, 0]);
    expect(toString(voiceDuration(voice))).toBe('4');
  });

  it('reads unmarked groups of three as triplets only where marked ones came before', () => {
    const make = () => Array.from({ length: 12 }, (_, k) => item(k * 10, 'eighth'));
    const unlicensed = make();
    repairVoice(unlicensed, frac(4), [], 12, false);
    expect(unlicensed.every((i) => !i.tuplet)).toBe(true);
    const licensed = make();
    repairVoice(licensed, frac(4), [], 12, true);
    expect(licensed.every((i) => i.tuplet?.actual === 3)).toBe(true);
    expect(toString(voiceDuration(licensed))).toBe('4');
  });

  it('adds the one missed dot that makes the voice fit, and nothing when none does', () => {
    const voice = [item(0, 'half'), item(30, 'quarter')];
    repairVoice(voice, frac(4), [], 12);
    expect(voice[0]!.dots).toBe(1);
    const ambiguous = [item(0, 'quarter'), item(30, 'eighth'), item(40, 'eighth')];
    repairVoice(ambiguous, frac(3), [], 12);
    expect(ambiguous.map((i) => i.dots)).toEqual([0, 0, 0]);
  });
});
