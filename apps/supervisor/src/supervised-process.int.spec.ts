// A real child process over a real IPC channel: what the supervisor sends the
// child (an extension's process, say) arrives, what a service sends
// the supervisor (its delivery outcomes) is heard, and nothing is sent while
// no child runs.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RESTART_POLICY } from './restart-policy.js';
import { superviseProcess, type SupervisedProcess } from './supervised-process.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Says when it listens, then writes back every message it gets; sends one when asked. */
const ECHO_CHILD = `
process.on('message', (message) => {
  if (message.type === 'report') process.send({ type: 'delivery-outcome', messageId: message.messageId });
  console.log(JSON.stringify({ echoed: message }));
});
process.on('disconnect', () => process.exit(0));
console.log('listening');
`;

let directory: string;
let child: SupervisedProcess | undefined;
const lines: string[] = [];
const messages: unknown[] = [];
const waiters: { text: string; resolve: () => void }[] = [];

function onLine(line: string): void {
  lines.push(line);
  for (const waiter of waiters.filter((candidate) => line.includes(candidate.text))) {
    waiter.resolve();
  }
}

function lineContaining(text: string): Promise<void> {
  if (lines.some((line) => line.includes(text))) return Promise.resolve();
  return new Promise((resolve) => waiters.push({ text, resolve }));
}

function startEchoChild(): SupervisedProcess {
  return superviseProcess({
    spec: {
      name: 'listener',
      group: 'edge',
      entry: path.join(directory, 'echo.mjs'),
      env: { PATH: process.env['PATH'] ?? '' },
      readyUrl: 'http://127.0.0.1:9/ready',
    },
    command: [path.join(directory, 'echo.mjs')],
    repoRoot: REPO_ROOT,
    policy: DEFAULT_RESTART_POLICY,
    onLine,
    onMessage: (message) => messages.push(message),
    onEvent: () => undefined,
  });
}

beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'supervised-'));
  await writeFile(path.join(directory, 'echo.mjs'), ECHO_CHILD);
  lines.length = 0;
  messages.length = 0;
});
afterEach(async () => {
  await child?.stop();
  await rm(directory, { recursive: true, force: true });
});

describe('SupervisedProcess.send', () => {
  it('delivers a message to the running child over its IPC channel', async () => {
    // Given a supervised child that listens for messages
    child = startEchoChild();
    await lineContaining('listening');

    // When the supervisor sends it a delivery outcome
    const sent = child.send({ type: 'delivery-outcome', messageId: 'm-1' });

    // Then the child got it
    expect(sent).toBe(true);
    await lineContaining('"echoed"');
    expect(lines).toContain('{"echoed":{"type":"delivery-outcome","messageId":"m-1"}}');
  });

  it("hears the child's own messages, such as its delivery outcomes", async () => {
    // Given a supervised child
    child = startEchoChild();
    await lineContaining('listening');

    // When it sends a message over its channel
    child.send({ type: 'report', messageId: 'm-2' });
    await lineContaining('"report"');

    // Then the supervisor got it, as sent
    await expect
      .poll(() => messages)
      .toContainEqual({ type: 'delivery-outcome', messageId: 'm-2' });
  });

  it('sends nothing once the child has stopped', async () => {
    // Given a child that was stopped
    child = startEchoChild();
    await lineContaining('listening');
    await child.stop();

    // When a message is sent, then it is dropped
    expect(child.send({ type: 'delivery-outcome' })).toBe(false);
  });
});
