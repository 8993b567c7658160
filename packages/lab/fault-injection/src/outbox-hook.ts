// The outbox relay's fault point lives in the service kit, which starts the
// relay (runService); the lab's entry keeps exporting it under its old name.
export { relayFaultPoint } from '@effectively-once/service-kit';
