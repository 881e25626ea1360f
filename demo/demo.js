// ScoreSight drop-in demo: recognise sheet music in the browser with the local job engine.
//
// Everything a notation editor needs is here, in plain ES modules: create a job from files,
// follow its progress, answer the details step, show the result beside the source page,
// download it, and manage the jobs kept in this browser. The client is the same interface as
// the hosted Music Recognition Service, so swapping in the hosted adapter changes one line.
//
// Test hooks (see demo/README.md): `?now=<ISO date>` starts the client's clock at that date,
// and `window.scoresightDemo` exposes the client and `sweepRetention()`.
import {
  createClient,
  env,
  followJob,
  INSTRUMENTS,
  keyAlter,
  placedNotes,
  soundingMidiNumber,
  writeMidi,
  writeMusicXml,
  writeMxl,
} from './scoresight/scoresight.js';

/** Measures read with less confidence than this are highlighted (the slider changes it). */
let uncertainBelow = 0.7;

const $ = (selector) => document.querySelector(selector);
const params = new URLSearchParams(location.search);

// ---------------------------------------------------------------------------
// The client

// The clock: the real one, or one that starts at `?now=` and runs on from there.
const clockStart = params.has('now') ? Date.parse(params.get('now')) : NaN;
if (params.has('now') && Number.isNaN(clockStart)) console.warn(`?now=${params.get('now')} is not a date; using the real clock`);
let clockOffset = Number.isNaN(clockStart) ? 0 : clockStart - Date.now();
const now = () => new Date(Date.now() + clockOffset);

// The client keeps jobs in IndexedDB. Beside the service's interface, the local client has
// `getJobResult(jobId)`: a finished job's score with its recognition evidence — every measure of
// `score.parts[p].measures` carries `evidence: { page, box, confidence }`.
const client = createClient({ now });
const capabilities = await client.getCapabilities();

window.scoresightDemo = {
  client,
  /** Sets the demo's clock (a date or ISO string); it runs on from there. */
  setClock(date) {
    clockOffset = new Date(date).getTime() - Date.now();
  },
  /** Erases jobs past their retention date now (on the demo's clock), and refreshes the list. */
  async sweepRetention() {
    const erased = await client.sweepRetention();
    await refreshJobs();
    return erased;
  },
};

$('#environment').textContent =
  `ScoreSight runs in this page: ${crossOriginIsolated ? `cross-origin isolated, ${env.threads} inference threads` : 'one inference thread (the page is not cross-origin isolated)'}` +
  `; models from ${env.modelBase}; kept for ${capabilities.retentionDays} days` +
  (clockOffset === 0 ? '' : `; clock set to ${now().toISOString()}`);

// ---------------------------------------------------------------------------
// New job: files, language, start

let chosen = [];

/**
 * What the page remembers in localStorage, per origin: the languages last chosen and the names of the
 * jobs it created. A job resource carries neither its files' names nor its title, and a user who works
 * in German should not have to pick German again for every job.
 */
const REMEMBERED = {
  /** The "language of the printed text" last chosen. */
  textLanguage: 'scoresight-demo.textLanguage',
  /** The details step's main language last chosen. */
  mainLanguage: 'scoresight-demo.mainLanguage',
  /** `{ [jobId]: { files: string[], title?: string } }`. */
  jobNames: 'scoresight-demo.jobNames',
};

/** localStorage may be missing or full (private windows, quotas): remembering is then skipped, never an error. */
function recall(key) {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}
function remember(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Not kept past this page; the page still works.
  }
}

fillLanguages($('#language'), recall(REMEMBERED.textLanguage) ?? navigator.language);
fillLanguages($('#details-language'), recall(REMEMBERED.mainLanguage) ?? navigator.language);
$('#language').addEventListener('change', () => remember(REMEMBERED.textLanguage, $('#language').value));
$('#details-language').addEventListener('change', () => remember(REMEMBERED.mainLanguage, $('#details-language').value));

function fillLanguages(select, preferred) {
  for (const { code, name } of capabilities.localesDetails) select.add(new Option(`${name} (${code})`, code));
  select.value = supportedLanguage(preferred) ?? 'en';
}

/** `preferred` if the client reads it, else its base language (`de-AT` → `de`), else undefined. */
function supportedLanguage(preferred) {
  if (typeof preferred !== 'string') return undefined;
  const base = preferred.split('-')[0];
  return capabilities.locales.includes(preferred) ? preferred : capabilities.locales.includes(base) ? base : undefined;
}

function choose(files) {
  chosen = [...chosen, ...files];
  const list = $('#chosen-files');
  list.replaceChildren(...chosen.map((file) => Object.assign(document.createElement('li'), { textContent: `${file.name} (${kib(file.size)})` })));
  $('#start').disabled = chosen.length === 0;
}

$('#file-input').addEventListener('change', (event) => {
  choose(event.target.files);
  event.target.value = '';
});
const dropZone = $('#drop-zone');
dropZone.addEventListener('dragover', (event) => {
  event.preventDefault();
  dropZone.classList.add('over');
});
dropZone.addEventListener('dragleave', () => dropZone.classList.remove('over'));
dropZone.addEventListener('drop', (event) => {
  event.preventDefault();
  dropZone.classList.remove('over');
  choose(event.dataTransfer.files);
});
$('#example').addEventListener('click', async (event) => {
  event.preventDefault();
  const response = await fetch(event.target.href);
  choose([new File([await response.blob()], 'brahms-symphony3-clarinet.pdf', { type: 'application/pdf' })]);
});

$('#start').addEventListener('click', async () => {
  const files = chosen;
  chosen = [];
  $('#chosen-files').replaceChildren();
  $('#start').disabled = true;
  showJobSection();
  try {
    const job = await client.createJob({
      output: 'musicxml',
      interactiveSteps: $('#review').checked ? ['details'] : [],
      locales: [$('#language').value],
      // Blobs (File objects) go in as they are; the hosted service would take Base64.
      files: files.map((file) => ({ file, filename: file.name, ...(file.type ? { mimeType: file.type } : {}) })),
      autoStart: true,
    });
    nameJob(job.id, { files: files.map((file) => file.name) });
    await refreshJobs();
    openJob(job.id);
  } catch (err) {
    // A file refused before any job exists (unsupported, empty, too large, damaged): nothing was made or charged.
    $('#status').textContent = 'not started: a file was refused';
    $('#status').dataset.status = 'refused';
    showError(err.code ?? 'ERROR', err.message);
  }
});

// ---------------------------------------------------------------------------
// Following a job

let following; // { jobId, controller }

/** Shows a job and follows it until it settles; the job's id goes in the address, so a reload reopens it. */
async function openJob(jobId) {
  following?.controller.abort();
  const controller = new AbortController();
  following = { jobId, controller };
  history.replaceState(null, '', `${location.search}#job=${jobId}`);
  showJobSection(jobId);
  const timing = { started: undefined, firstPage: undefined };
  try {
    let job;
    for await (job of followJob(client, jobId, { signal: controller.signal })) {
      showProgress(job);
      measureFirstPage(job, timing);
      void refreshJobs();
    }
    await showSettled(job);
  } catch (err) {
    if (err.code === 'ABORTED') return; // another job was opened
    showError(err.code ?? 'ERROR', err.message);
  }
}

function showJobSection(jobId) {
  $('#job').hidden = false;
  $('#job-id').textContent = jobId ?? '';
  $('#status').textContent = jobId ? '' : 'reading files…';
  for (const id of ['#error', '#details', '#result', '#timing']) $(id).hidden = true;
  delete $('#result').dataset.ready;
  $('#progress').value = 0;
  $('#progress-text').textContent = '';
  $('#progress-box').hidden = false;
}

function showProgress(job) {
  $('#status').textContent = job.status;
  $('#status').dataset.status = job.status;
  if (job.progress) {
    $('#progress').value = job.progress.percent;
    $('#progress-text').textContent = job.progress.text;
  }
}

/**
 * The first page's recognition time: from the first snapshot on page 1 (worker started, models
 * loading) to the first that has left it. Shown to the user and kept in `data-ms` for the tests.
 */
function measureFirstPage(job, timing) {
  const page = job.progress?.current;
  if (timing.started === undefined && page === 1 && job.progress.key !== 'OMR_QUEUED') timing.started = performance.now();
  const leftPage1 = (page ?? 0) > 1 || job.progress?.key === 'OMR_ASSEMBLING' || job.progress?.key === 'OMR_CREATING_SCORE' || job.status !== 'processing';
  if (timing.started !== undefined && timing.firstPage === undefined && leftPage1 && job.status !== 'error') {
    timing.firstPage = performance.now() - timing.started;
    $('#timing').hidden = false;
    $('#timing').dataset.ms = String(Math.round(timing.firstPage));
    $('#timing').textContent = `Page 1 recognised in ${(timing.firstPage / 1000).toFixed(1)} s (models loaded on first use).`;
  }
}

async function showSettled(job) {
  $('#progress-box').hidden = job.status !== 'processing';
  if (job.status === 'awaitingInput' && job.pendingStep?.step === 'details') showDetails(job);
  else if (job.status === 'done') await showResult(job);
  else if (job.status === 'error') showError(job.errorCode, job.errorMessage);
  else if (job.status === 'canceled') showError('CANCELED', 'The job was canceled.');
}

function showError(code, message) {
  $('#job').hidden = false;
  for (const id of ['#progress-box', '#details', '#result']) $(id).hidden = true;
  $('#error').hidden = false;
  $('#error').dataset.code = code;
  $('#error-code').textContent = code;
  $('#error-message').textContent = message;
}

// ---------------------------------------------------------------------------
// The details step

function showDetails(job) {
  const { data } = job.pendingStep;
  const form = $('#details');
  form.hidden = false;
  form.dataset.jobId = job.id;
  $('#details-title').value = data.title;
  // The main language last chosen stays chosen (this form is shown again on reopening the job, and for
  // later jobs); before any choice, the job's own text language is the best guess.
  const language = $('#details-language');
  language.value = supportedLanguage(recall(REMEMBERED.mainLanguage)) ?? supportedLanguage(job.locales[0]) ?? language.value;
  const rows = data.instruments.map((instrument) => {
    const row = document.createElement('tr');
    const name = Object.assign(document.createElement('input'), { name: `part-name-${instrument.index}`, value: instrument.partName, size: 16 });
    const select = instrumentSelect(`instrument-${instrument.index}`, instrument.instrumentId);
    const detected = `${instrument.instrumentName} (${instrument.resolvedConfidence} confidence)`;
    const cells = [cell(String(instrument.index + 1)), cell(detected), cell(name), cell(select)];
    for (const [i, td] of cells.entries()) td.dataset.label = DETAILS_COLUMNS[i];
    row.append(...cells);
    row.dataset.index = String(instrument.index);
    row.dataset.detectedName = instrument.partName;
    row.dataset.detectedInstrument = instrument.instrumentId;
    return row;
  });
  $('#details-instruments').replaceChildren(...rows);
}

/** The details table's column headings, repeated on each cell for the narrow (phone) layout. */
const DETAILS_COLUMNS = ['Part', 'Detected', 'Name', 'Instrument'];

/** A picker over the library's instrument table, grouped as its ids are (`strings.violin`). */
function instrumentSelect(name, selected) {
  const select = Object.assign(document.createElement('select'), { name });
  const groups = new Map();
  for (const instrument of INSTRUMENTS) {
    const group = instrument.id.split('.')[0];
    if (!groups.has(group)) groups.set(group, Object.assign(document.createElement('optgroup'), { label: group }));
    groups.get(group).append(new Option(instrument.name, instrument.id));
  }
  select.append(...groups.values());
  select.value = selected;
  return select;
}

$('#details').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = event.target;
  const jobId = form.dataset.jobId;
  // Only what the user changed is sent: the rest keeps what recognition found.
  const instruments = [...$('#details-instruments').rows].flatMap((row) => {
    const index = Number(row.dataset.index);
    const partName = row.querySelector(`[name="part-name-${index}"]`).value;
    const instrumentId = row.querySelector(`[name="instrument-${index}"]`).value;
    const override = { index };
    if (partName !== row.dataset.detectedName) override.partName = partName;
    if (instrumentId !== row.dataset.detectedInstrument) override.instrumentId = instrumentId;
    return Object.keys(override).length > 1 ? [override] : [];
  });
  try {
    $('#details-submit').disabled = true;
    const title = $('#details-title').value;
    const mainLanguage = $('#details-language').value;
    remember(REMEMBERED.mainLanguage, mainLanguage);
    await client.submitJobStep(jobId, 'details', {
      step: 'details',
      title,
      mainLanguage,
      ...(instruments.length ? { instruments } : {}),
    });
    nameJob(jobId, { title });
    form.hidden = true;
    openJob(jobId);
  } catch (err) {
    showError(err.code ?? 'ERROR', err.message);
  } finally {
    $('#details-submit').disabled = false;
  }
});

// ---------------------------------------------------------------------------
// The result: source page, notation, downloads, playback

let shown; // { job, score, original, modelVersion, corrections, pageCount, page }

async function showResult(job) {
  const stored = await client.getJobResult(job.id);
  // `score` is what the page shows, plays and downloads: the stored score with the user's corrections.
  shown = { job, score: structuredClone(stored.score), original: stored.score, modelVersion: stored.modelVersion, corrections: 0, pageCount: stored.pageCount, page: 0 };
  closeCorrection();
  if (nameJob(job.id, { title: stored.score.credits.title ?? '' })) void refreshJobs();
  $('#result').hidden = false;
  const buttons = job.result.exports.map((format) => {
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: format });
    button.dataset.format = format;
    button.addEventListener('click', () => download(job.id, format));
    return button;
  });
  $('#downloads').replaceChildren(Object.assign(document.createElement('span'), { textContent: 'Download:' }), ...buttons, $('#play'));
  $('#page-count').textContent = String(shown.pageCount);
  await Promise.all([showPage(0), showNotation()]);
  $('#result').dataset.ready = 'true';
}

$('#threshold').addEventListener('input', () => {
  uncertainBelow = Number($('#threshold').value) / 100;
  $('#threshold-value').textContent = `${$('#threshold').value} %`;
  if (!shown) return;
  markUncertainOnPage($('#source-image'), shown.page, shown.score);
  markUncertainMeasures($('#notation'), shown.score);
});

async function download(jobId, format) {
  try {
    const file = correctedExport(jobId, await client.exportJob(jobId, format), format);
    const url = URL.createObjectURL(new Blob([file.data], { type: file.contentType }));
    const link = Object.assign(document.createElement('a'), { href: url, download: file.filename });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (err) {
    showError(err.code ?? 'ERROR', err.message);
  }
}

/** One input page (`getJobFile`), with the uncertain measures read on it marked. */
async function showPage(index) {
  const { job } = shown;
  shown.page = index;
  $('#page-number').textContent = String(index + 1);
  $('#page-prev').disabled = index === 0;
  $('#page-next').disabled = index >= shown.pageCount - 1;
  const file = await client.getJobFile(job.id, index);
  const image = $('#source-image');
  const previous = image.src;
  image.src = URL.createObjectURL(new Blob([file.data], { type: file.contentType }));
  if (previous.startsWith('blob:')) URL.revokeObjectURL(previous);
  await image.decode();
  markUncertainOnPage(image, index, shown.score);
}

function markUncertainOnPage(image, index, score) {
  const marks = [];
  for (const [p, part] of (score?.parts ?? []).entries()) {
    for (const [m, measure] of part.measures.entries()) {
      const evidence = measure.evidence;
      if (!evidence || evidence.page !== index || evidence.confidence >= uncertainBelow) continue;
      const { x, y, width, height } = evidence.box;
      const mark = document.createElement('button');
      mark.type = 'button';
      mark.className = 'uncertain-mark';
      mark.dataset.part = String(p);
      mark.dataset.measure = String(m);
      mark.title = `${part.name || `Part ${p + 1}`}, measure ${m + 1}: confidence ${Math.round(evidence.confidence * 100)} % (click to correct)`;
      mark.setAttribute('aria-label', mark.title);
      mark.addEventListener('click', () => openCorrection(p, m));
      // Boxes are in the pixels of the decoded page, which is what getJobFile returns.
      Object.assign(mark.style, {
        left: `${(100 * x) / image.naturalWidth}%`,
        top: `${(100 * y) / image.naturalHeight}%`,
        width: `${(100 * width) / image.naturalWidth}%`,
        height: `${(100 * height) / image.naturalHeight}%`,
      });
      marks.push(mark);
    }
  }
  $('#source-marks').replaceChildren(...marks);
}
$('#page-prev').addEventListener('click', () => showPage(shown.page - 1));
$('#page-next').addEventListener('click', () => showPage(shown.page + 1));

let verovio;
/** Verovio's toolkit, loaded on first use (7 MB: its WebAssembly is inside the module). */
function toolkit() {
  verovio ??= (async () => {
    const [{ default: createVerovioModule }, { VerovioToolkit }] = await Promise.all([
      import('./vendor/verovio/verovio-module.mjs'),
      import('./vendor/verovio/verovio.mjs'),
    ]);
    return new VerovioToolkit(await createVerovioModule());
  })();
  return verovio;
}

/**
 * The export as the client wrote it, or, once the user corrected notes, written again from the
 * corrected score by the library's own writers (same file name and type; the thumbnail is the page).
 */
function correctedExport(jobId, file, format) {
  if (!shown?.corrections || shown.job.id !== jobId) return file;
  const options = { modelVersion: shown.modelVersion };
  const writers = {
    musicxml: () => new TextEncoder().encode(writeMusicXml(shown.score, options)),
    mxl: () => writeMxl(shown.score, options),
    midi: () => writeMidi(shown.score),
  };
  return writers[format] ? { ...file, data: writers[format]() } : file;
}

/** The shown score's MusicXML (the corrected score's, after corrections), engraved by Verovio, uncertain measures highlighted per part. */
async function showNotation() {
  const container = $('#notation');
  try {
    const tk = await toolkit();
    const scale = 35;
    tk.setOptions({ scale, pageWidth: Math.max(1000, Math.floor((container.clientWidth * 100) / scale)), adjustPageHeight: true, breaks: 'auto', footer: 'none' });
    if (!tk.loadData(writeMusicXml(shown.score, { modelVersion: shown.modelVersion }))) throw new Error('Verovio could not read the MusicXML');
    const pages = Array.from({ length: tk.getPageCount() }, (_, i) => tk.renderToSVG(i + 1));
    container.innerHTML = pages.join('');
    markUncertainMeasures(container, shown.score);
    container.dataset.rendered = 'true';
  } catch (err) {
    container.textContent = `The notation could not be shown: ${err.message}`;
  }
}

/**
 * Verovio draws the measures in score order, each with one `g.staff` per staff, parts top to
 * bottom: the score model's measure m of part p is measure m's staves of that part.
 */
function markUncertainMeasures(container, score) {
  for (const old of container.querySelectorAll('rect.uncertain-mark')) old.remove();
  for (const old of container.querySelectorAll('.uncertain')) old.classList.remove('uncertain');
  if (!score) return;
  const firstStaff = [];
  score.parts.reduce((n, part) => (firstStaff.push(n), n + part.staves), 0);
  for (const [m, measure] of [...container.querySelectorAll('g.measure')].entries()) {
    const staves = [...measure.children].filter((g) => g.classList.contains('staff'));
    for (const [p, part] of score.parts.entries()) {
      const confidence = part.measures[m]?.evidence?.confidence;
      if (confidence === undefined || confidence >= uncertainBelow) continue;
      for (const staff of staves.slice(firstStaff[p], firstStaff[p] + part.staves)) {
        staff.classList.add('uncertain');
        const box = staff.getBBox();
        const rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
        for (const [k, v] of Object.entries({ x: box.x, y: box.y, width: box.width, height: box.height, class: 'uncertain-mark' })) rect.setAttribute(k, String(v));
        const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
        title.textContent = `measure ${m + 1}: confidence ${Math.round(confidence * 100)} % (click to correct)`;
        rect.append(title);
        rect.dataset.part = String(p);
        rect.dataset.measure = String(m);
        staff.prepend(rect);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Correction in place: an uncertain measure's source crop beside its notes, each a step up or down

/** Pixels of page around a measure's box in its crop, as a share of the box's height. */
const CROP_MARGIN = 0.3;
/** The crop's widest drawing, CSS pixels (it shrinks to fit narrower screens). */
const CROP_MAX_WIDTH = 640;
/** Note names in diatonic order, from C. */
const STEPS = ['C', 'D', 'E', 'F', 'G', 'A', 'B'];

let correcting; // { part, measure }

/** Shows measure `m` of part `p`: its crop of the source page and its notes, each with ▲ and ▼. */
async function openCorrection(p, m) {
  const measure = shown.score.parts[p]?.measures[m];
  if (!measure?.evidence) return;
  correcting = { part: p, measure: m };
  const panel = $('#correction');
  delete panel.dataset.ready;
  panel.hidden = false;
  panel.dataset.part = String(p);
  panel.dataset.measure = String(m);
  const part = shown.score.parts[p];
  $('#correction-heading').textContent = `${part.name || `Part ${p + 1}`}, measure ${measure.number || m + 1} — read with ${Math.round(measure.evidence.confidence * 100)} % confidence`;
  if (shown.page !== measure.evidence.page) await showPage(measure.evidence.page);
  drawCrop($('#correction-crop'), $('#source-image'), measure.evidence.box);
  listNotes();
  panel.dataset.ready = 'true';
  panel.scrollIntoView({ block: 'nearest' });
}

function closeCorrection() {
  correcting = undefined;
  $('#correction').hidden = true;
}
$('#correction-close').addEventListener('click', closeCorrection);

/** The measure's box on the decoded page, with a margin, drawn at most CROP_MAX_WIDTH wide. */
function drawCrop(canvas, image, box) {
  const margin = Math.round(box.height * CROP_MARGIN);
  const sx = Math.max(0, box.x - margin);
  const sy = Math.max(0, box.y - margin);
  const sw = Math.min(image.naturalWidth, box.x + box.width + margin) - sx;
  const sh = Math.min(image.naturalHeight, box.y + box.height + margin) - sy;
  const scale = Math.min(1, CROP_MAX_WIDTH / sw);
  canvas.width = Math.max(1, Math.round(sw * scale));
  canvas.height = Math.max(1, Math.round(sh * scale));
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, sx, sy, sw, sh, 0, 0, canvas.width, canvas.height);
}

/** The pitched notes of the measure being corrected, in reading order: `{ note, event }`. */
function correctableNotes() {
  const measure = shown.score.parts[correcting.part].measures[correcting.measure];
  return measure.voices.flatMap((voice) => voice.events.flatMap((event) => (event.kind === 'note' ? event.notes.filter((note) => !note.unpitched).map((note) => ({ note, event })) : [])));
}

function listNotes() {
  const notes = correctableNotes();
  const items = notes.map(({ note }, i) => {
    const item = document.createElement('li');
    item.dataset.index = String(i);
    const name = Object.assign(document.createElement('span'), { className: 'pitch', textContent: pitchName(note.pitch) });
    const up = Object.assign(document.createElement('button'), { type: 'button', className: 'note-up', textContent: '▲' });
    const down = Object.assign(document.createElement('button'), { type: 'button', className: 'note-down', textContent: '▼' });
    up.setAttribute('aria-label', `Note ${i + 1} (${pitchName(note.pitch)}) a step up`);
    down.setAttribute('aria-label', `Note ${i + 1} (${pitchName(note.pitch)}) a step down`);
    up.addEventListener('click', () => moveNote(i, 1));
    down.addEventListener('click', () => moveNote(i, -1));
    item.append(Object.assign(document.createElement('span'), { className: 'number', textContent: `${i + 1}.` }), name, up, down);
    return item;
  });
  $('#correction-notes').replaceChildren(...items);
  $('#correction-empty').hidden = notes.length > 0;
  $('#corrections-made').textContent = shown.corrections
    ? `${shown.corrections} correction${shown.corrections === 1 ? '' : 's'} made: the notation, playback and downloads use the corrected score.`
    : '';
  $('#correction-revert').hidden = !shown.corrections;
}

/**
 * Moves note `i` of the measure a diatonic step: the next line or space, spelt as the key signature
 * spells it (a printed accidental no longer applies). Its ties go, since the tied note keeps its pitch.
 */
async function moveNote(i, by) {
  const { note } = correctableNotes()[i];
  note.pitch = stepPitch(note.pitch, by, keyAt(shown.score.parts[correcting.part], correcting.measure));
  delete note.accidental;
  delete note.tieStart;
  delete note.tieStop;
  shown.corrections++;
  listNotes();
  await showNotation();
}

function stepPitch(pitch, by, fifths) {
  const index = pitch.octave * 7 + STEPS.indexOf(pitch.step) + by;
  const step = STEPS[((index % 7) + 7) % 7];
  return { step, octave: Math.floor(index / 7), alter: keyAlter(fifths, step) };
}

/** The key signature in force in measure `m` of a part (the last one set at or before it). */
function keyAt(part, m) {
  for (let i = m; i >= 0; i--) if (part.measures[i]?.key) return part.measures[i].key.fifths;
  return 0;
}

function pitchName({ step, alter, octave }) {
  const accidental = { '-2': '𝄫', '-1': '♭', 0: '', 1: '♯', 2: '𝄪' }[alter] ?? `${alter > 0 ? '+' : ''}${alter}`;
  return `${step}${accidental}${octave}`;
}

$('#correction-revert').addEventListener('click', async () => {
  shown.score = structuredClone(shown.original);
  shown.corrections = 0;
  if (correcting) listNotes();
  await showNotation();
});

// A click anywhere on a highlighted staff (its notes are drawn over its mark) corrects that measure.
$('#notation').addEventListener('click', (event) => {
  const mark = event.target.closest?.('g.staff.uncertain')?.querySelector(':scope > rect.uncertain-mark');
  if (mark) void openCorrection(Number(mark.dataset.part), Number(mark.dataset.measure));
});

// Playback: the score's notes on a simple Web Audio synthesiser, at ♩ = 100 (cheap, no sound font).
let playing;
$('#play').addEventListener('click', () => {
  if (playing) return stopPlaying();
  if (!shown?.score) return;
  const audio = new AudioContext();
  const start = audio.currentTime + 0.1;
  const secondsPerQuarter = 60 / 100;
  let end = start;
  for (const note of placedNotes(shown.score)) {
    if (note.note.grace) continue;
    const part = shown.score.parts[note.part];
    const midi = soundingMidiNumber(note.pitch, part.transposition);
    const t0 = start + (note.onset.n / note.onset.d) * secondsPerQuarter;
    const t1 = t0 + Math.max(0.05, (note.duration.n / note.duration.d) * secondsPerQuarter * 0.95);
    const oscillator = new OscillatorNode(audio, { type: 'triangle', frequency: 440 * 2 ** ((midi - 69) / 12) });
    const gain = new GainNode(audio, { gain: 0 });
    gain.gain.setTargetAtTime(0.15, t0, 0.01);
    gain.gain.setTargetAtTime(0, t1 - 0.03, 0.02);
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(t0);
    oscillator.stop(t1 + 0.1);
    end = Math.max(end, t1 + 0.1);
  }
  playing = { audio, timer: setTimeout(stopPlaying, (end - audio.currentTime) * 1000) };
  $('#play').textContent = '■ Stop';
});

function stopPlaying() {
  clearTimeout(playing?.timer);
  void playing?.audio.close();
  playing = undefined;
  $('#play').textContent = '▶ Play';
}

// ---------------------------------------------------------------------------
// Jobs kept in this browser

async function refreshJobs() {
  const jobs = [];
  let cursor;
  do {
    const page = await client.listJobs({ limit: 100, ...(cursor ? { cursor } : {}) });
    jobs.push(...page.jobs);
    cursor = page.nextCursor;
  } while (cursor);
  $('#no-jobs').hidden = jobs.length > 0;
  for (const job of jobs) void learnTitle(job);
  // A row whose job has not changed is kept as it is, so a button is never swapped under a user's click.
  const body = $('#jobs tbody');
  const existing = new Map([...body.rows].map((row) => [row.dataset.jobId, row]));
  const rows = jobs.map((job) => {
    const row = existing.get(job.id);
    return row?.dataset.key === rowKey(job) ? row : jobRow(job);
  });
  if (rows.length !== body.rows.length || rows.some((row, i) => body.rows[i] !== row)) body.replaceChildren(...rows);
}

/** What a job's row shows; the row is rebuilt when this changes. */
function rowKey(job) {
  return JSON.stringify([job.status, job.errorCode, job.retention, job.estimatedCredits, jobName(job.id), stopping.has(job.id)]);
}

/** Whether a job can still be canceled: it is being recognised, or waits for the details step. */
const RUNNING_STATUSES = ['processing', 'awaitingInput'];

/** Jobs whose cancel was asked for while a page was being read: they stop when it ends. */
const stopping = new Set();

function jobRow(job) {
  const row = document.createElement('tr');
  row.dataset.jobId = job.id;
  row.dataset.status = job.status;
  row.dataset.key = rowKey(job);
  const expired = job.retention?.expiredDate;
  const retention = expired ? `erased ${date(expired)}` : job.retention ? date(job.retention.expiryDate) : '—';
  const open = Object.assign(document.createElement('button'), { type: 'button', className: 'open', textContent: 'Open' });
  open.addEventListener('click', () => openJob(job.id));
  const remove = Object.assign(document.createElement('button'), { type: 'button', className: 'delete', textContent: 'Delete' });
  remove.disabled = !!expired || RUNNING_STATUSES.includes(job.status);
  remove.addEventListener('click', async () => {
    try {
      await client.deleteJob(job.id);
    } catch (err) {
      showError(err.code ?? 'ERROR', err.message);
    }
    await refreshJobs();
  });
  const actions = [open];
  if (RUNNING_STATUSES.includes(job.status)) actions.push(cancelButton(job.id));
  actions.push(remove);
  const status = job.status === 'error' ? `error ${job.errorCode}` : stopping.has(job.id) ? 'stopping after this page' : job.status;
  const retentionCell = cell(retention);
  retentionCell.className = 'retention';
  const cells = [cell(nameOf(job)), cell(date(job.creationDate)), cell(status), cell(String(job.estimatedCredits ?? '—')), retentionCell, cell(...actions)];
  cells[0].className = 'job-name';
  cells[5].className = 'actions';
  for (const [i, td] of cells.entries()) td.dataset.label = JOB_COLUMNS[i];
  row.append(...cells);
  return row;
}

/** The jobs table's column headings, repeated on each cell for the narrow (phone) layout. */
const JOB_COLUMNS = ['Score', 'Created', 'Status', 'Pages', 'Kept until', ''];

/**
 * Cancels a running job: at once, the worker reading a page ended. A client whose pool cannot end
 * its workers answers OMR_JOB_NOT_CANCELLABLE while a page is read and stops the job when that page
 * ends: the row says so, and follows the job until it is canceled.
 */
function cancelButton(jobId) {
  const button = Object.assign(document.createElement('button'), { type: 'button', className: 'cancel', textContent: 'Cancel' });
  button.disabled = stopping.has(jobId);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await client.cancelJob(jobId);
    } catch (err) {
      if (err.code !== 'OMR_JOB_NOT_CANCELLABLE') {
        button.disabled = false;
        showError(err.code ?? 'ERROR', err.message);
        return;
      }
      stopping.add(jobId);
      await refreshJobs();
      try {
        for await (const job of followJob(client, jobId)) if (job.status !== 'processing') break;
      } catch {
        // The list below shows whatever the job became.
      }
    }
    stopping.delete(jobId);
    await refreshJobs();
    // The job shown above may be this one, and its follower may have stopped at the details step.
    if (following?.jobId === jobId) void openJob(jobId);
  });
  return button;
}

// The names of the jobs: their files, as chosen, and their title once recognition or the user gave one.

/** The names as remembered; read again when another tab of this site changes them. */
let jobNames = recall(REMEMBERED.jobNames) ?? {};
addEventListener('storage', (event) => {
  if (event.key !== REMEMBERED.jobNames) return;
  jobNames = recall(REMEMBERED.jobNames) ?? {};
  void refreshJobs();
});

function jobName(jobId) {
  return jobNames[jobId];
}

/** Records what is known of a job's name; returns whether that changed anything. */
function nameJob(jobId, { files, title }) {
  jobNames = recall(REMEMBERED.jobNames) ?? jobNames;
  const before = JSON.stringify(jobNames[jobId] ?? {});
  const next = { ...jobNames[jobId], ...(files ? { files } : {}), ...(title !== undefined ? { title } : {}) };
  if (JSON.stringify(next) === before) return false;
  jobNames = { ...jobNames, [jobId]: next };
  remember(REMEMBERED.jobNames, jobNames);
  return true;
}

/** The row's name: the title (when there is one) over the files' names; the job's id for a job made elsewhere. */
function nameOf(job) {
  const { files = [], title = '' } = jobName(job.id) ?? {};
  const parts = [];
  if (title) parts.push(Object.assign(document.createElement('strong'), { className: 'job-title', textContent: title }));
  const fileNames = files.length > MAX_FILE_NAMES ? [...files.slice(0, MAX_FILE_NAMES - 1), `and ${files.length - MAX_FILE_NAMES + 1} more`] : files;
  const text = fileNames.length ? fileNames.join(', ') : job.id;
  const span = Object.assign(document.createElement('span'), { className: 'job-files', textContent: text, title: files.join('\n') || job.id });
  parts.push(span);
  const label = document.createElement('div');
  label.className = 'job-label';
  label.append(...parts);
  return label;
}

/** File names listed in a row before "and N more". */
const MAX_FILE_NAMES = 3;

/** Titles already being looked up, so each job's result is read once. */
const titleLookups = new Set();

/**
 * Learns a job's title from what recognition read: the details step shows it, a done job's score has it.
 * A done job's score is read once per page load, and only when the title is not known yet.
 */
async function learnTitle(job) {
  if (jobName(job.id)?.title !== undefined || titleLookups.has(job.id)) return;
  let title;
  if (job.status === 'awaitingInput') title = job.pendingStep?.data?.title;
  else if (job.status === 'done' && !job.retention?.expiredDate) {
    titleLookups.add(job.id);
    title = await client.getJobResult(job.id).then(
      (result) => result.score.credits.title ?? '',
      () => undefined,
    );
  }
  // A done job's empty title is remembered too (there is none to wait for); a pending one may still get one.
  if ((title || (job.status === 'done' && title !== undefined)) && nameJob(job.id, { title })) await refreshJobs();
}

// ---------------------------------------------------------------------------
// Helpers

function cell(...content) {
  const td = document.createElement('td');
  td.append(...content);
  return td;
}

function date(iso) {
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

function kib(bytes) {
  return bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

await refreshJobs();
const reopen = /^#job=([\w-]+)$/.exec(location.hash);
if (reopen) openJob(reopen[1]).catch(() => {});
document.body.dataset.ready = 'true';
