// The test kit for anyone adding a consumer: prove it idempotent and race-safe
// against a real PostgreSQL database. Framework-neutral (node:assert).
export { assertIdempotent } from './assert-idempotent.js';
export { assertRaceSafe, type RaceSetup } from './assert-race-safe.js';
export { markerCount, type ConsumerCheck } from './consumer-check.js';
export { recordingDelivery, type RecordingDelivery } from './recording-delivery.js';
