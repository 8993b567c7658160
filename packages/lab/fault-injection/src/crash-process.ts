// The crash fault: a real crash, not an exception. SIGKILL cannot be caught, so
// no shutdown hook, no finally and no rollback handler of ours runs; the
// database rolls back the open transaction when the connection drops, and the
// supervisor starts the service again.
import { writeSync } from 'node:fs';
import type { FaultFacts, FaultPoint } from './fault-points.js';
import type { LabJournal } from './lab-journal.js';

/** Journals the crash, logs a fatal line, and kills this process with SIGKILL. Never returns. */
export async function crashProcess(input: {
  journal: LabJournal;
  point: FaultPoint;
  faultId: string;
  facts: FaultFacts;
}): Promise<never> {
  const { journal, point, faultId, facts } = input;
  // Written before the kill and awaited: the journal is how anyone learns
  // afterwards where the process died.
  await journal.write('crash', facts, { point, faultId });
  // Written synchronously, in the logger's JSON shape: a logger's line to a
  // pipe is written asynchronously and may still be queued when SIGKILL lands.
  const line = {
    level: 60,
    time: Date.now(),
    pid: process.pid,
    ...facts,
    point,
    faultId,
    msg: 'lab fault: crashing this process with SIGKILL',
  };
  writeSync(process.stdout.fd, `${JSON.stringify(line)}\n`);
  process.kill(process.pid, 'SIGKILL');
  // The signal ends the process before anything else runs.
  return new Promise<never>(() => undefined);
}
