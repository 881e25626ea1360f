/**
 * ScoreSight: optical music recognition for browsers and Node.
 *
 * The score model sits in the middle: readers produce it, writers consume it.
 */
export * from './score/model.js';
export * as fraction from './score/fraction.js';
export type { Fraction } from './score/fraction.js';
export { measureStarts, notatedDuration, placedNotes, timeSignatureLength, type PlacedNote } from './score/timeline.js';
export { midiNumber, soundingMidiNumber, keyAlter } from './score/pitch.js';
export { INSTRUMENTS, instrumentById, instrumentForProgram, matchInstrumentName, type Instrument } from './score/instruments.js';
export { readMusicXml } from './import/musicxml/read-score.js';
export { readMidi } from './import/midi/read-midi.js';
export { writeMusicXml, MUSICXML_CONTENT_TYPE, type MusicXmlWriteOptions } from './exports/musicxml.js';
export { writeMxl, MXL_CONTENT_TYPE } from './exports/mxl.js';
export { writeMidi, midiNoteCount } from './exports/midi.js';
export { writeThumbnail } from './exports/thumbnail.js';
export type { Raster } from './image/raster.js';
export { RECOGNITION_MODEL_VERSION, recognizeScore, type PageReport, type PageTurn, type RecognizeOptions, type RecognizeProgress } from './recognize/recognize-score.js';
export type { InputFile } from './input/decode-pages.js';
export { env, type InferenceBackend, type ScoreSightEnv } from './env.js';
export { activeBackend } from './symbols/active-backend.js';
export { OmrError, type OmrErrorCode, type OmrErrorData } from './errors.js';
export { DEFAULT_PAGE_TIMEOUT_MS, createRecognitionPool, defaultPoolSize, type PoolOptions, type RecognitionPool, type RecognitionPoolOptions, type WorkerHandle } from './workers/worker-pool.js';
export type { MessageEndpoint, MessageListener } from './workers/worker-handle.js';
export { DEFAULT_PARSE_HEAP_MB, DEFAULT_PARSE_TIMEOUT_MS, createParseWorker, type ParseWorkerOptions, type ScoreFile, type ScoreFileKind, type ScoreParser } from './workers/parse-pool.js';
export { createClient, CLIENT_METHODS, type LocalClient, type LocalClientOptions, type JobScoreResult, type EngineWarning, type LongPollTimer } from './jobs/local-client.js';
export type { ScoreSightClient } from './jobs/client.js';
export { followJob, waitForJob, runJob, isSettled, type FollowOptions } from './jobs/follow.js';
export * from './jobs/types.js';
export { LOCALES, LOCALES_DETAILS } from './jobs/locales.js';
export type { Store, Collection } from './storage/store.js';
export { createMemoryStore } from './storage/memory-store.js';
export { openIndexedDbStore, type IndexedDbStoreOptions, type IndexedDbFactory } from './storage/idb-store.js';
export { createInProcessPool } from './workers/in-process.js';
export { createInProcessParser } from './workers/parse-service.js';
export { createRemoteClient, DEFAULT_TIMEOUT_MS, type RemoteClient, type RemoteClientOptions, type RateLimit } from './remote/remote-client.js';
export { LIBRARY_VERSION } from './version.js';
