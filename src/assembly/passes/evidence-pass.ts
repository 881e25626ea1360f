/**
 * Evidence: where on the user's page each part's measure stands, and how
 * sure the reading of it is (the mean confidence of its events, each of
 * which got its own box and confidence when it was made).
 *
 * Reads: the parts' measures and their events' evidence, the staves' lines.
 * Adds: `evidence` on every part's measure.
 */
import type { Box, Evidence, Measure } from '../../score/model.js';
import { toSourcePoint, type PageTransform } from '../../reading/page-transform.js';
import type { SystemReading } from '../read-page.js';
import type { Layout, ScorePass } from './reading-state.js';

/** Confidences are kept to this fraction (thousandths). */
const CONFIDENCE_STEPS = 1000;

export const evidencePass: ScorePass = {
  name: 'evidence',
  run(state) {
    for (const measureState of state.measures) {
      const system = state.systems[measureState.system]!;
      const slots = state.slotsOf[measureState.system]!;
      measureState.parts.forEach((measure, p) => {
        measure.evidence = measureEvidence(system, slots, state.layout, p, measureState.left, measureState.right, measure);
      });
    }
  },
};

/** A part's measure on the page: from barline to barline, over the part's staves; as sure as its events. */
function measureEvidence(system: SystemReading, slots: readonly number[], layout: Layout, part: number, left: number, right: number, measure: Measure): Evidence | undefined {
  const staves = system.staves.filter((_, k) => layout.slots[slots[k]!]?.part === part).map((r) => r.staff);
  if (!staves.length) return undefined;
  const y0 = Math.min(...staves.map((s) => Math.min(...s.lines[0]!)));
  const y1 = Math.max(...staves.map((s) => Math.max(...s.lines[4]!)));
  const confidences = measure.voices.flatMap((v) => v.events.flatMap((e) => (e.evidence ? [e.evidence.confidence] : [])));
  const confidence = confidences.length ? confidences.reduce((a, b) => a + b, 0) / confidences.length : 1;
  return evidenceOf(system.page, system.transform, { x0: left, x1: right, y0, y1 }, confidence);
}

/** A box in prepared-page pixels as the box it covers on the user's page, with a confidence. */
export function evidenceOf(page: number, transform: PageTransform, box: { x0: number; y0: number; x1: number; y1: number }, confidence: number): Evidence {
  const corners = [toSourcePoint(transform, box.x0, box.y0), toSourcePoint(transform, box.x1, box.y0), toSourcePoint(transform, box.x0, box.y1), toSourcePoint(transform, box.x1, box.y1)];
  const xs = corners.map((c) => c[0]);
  const ys = corners.map((c) => c[1]);
  const x = Math.max(0, Math.floor(Math.min(...xs)));
  const y = Math.max(0, Math.floor(Math.min(...ys)));
  const result: Box = { x, y, width: Math.ceil(Math.max(...xs)) - x, height: Math.ceil(Math.max(...ys)) - y };
  return { page, box: result, confidence: Math.round(confidence * CONFIDENCE_STEPS) / CONFIDENCE_STEPS };
}
