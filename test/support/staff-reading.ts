import type { StaffReading } from '../../src/assembly/read-page.js';
import type { Staff } from '../../src/staves/detect-staves.js';

/** A staff's reading for the music reader's tests: nothing on `staff` but what `given` puts there. */
export function staffReading(staff: Staff, given: Partial<Omit<StaffReading, 'staff'>> = {}): StaffReading {
  return {
    staff,
    signatures: { clefs: [], keys: [], times: [], keyAccidentals: new Set() },
    times: [],
    items: [],
    tuplets: [],
    multiRests: new Map(),
    accidentals: new Map(),
    articulations: new Map(),
    hairpins: [],
    octaveLines: [],
    ...given,
  };
}
