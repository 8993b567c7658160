// Every command in the root package.json, run as a person runs it (`pnpm
// <command>`), answers --help with its usage and refuses an unknown option in
// one line, with no stack trace. The list comes from package.json, so a new
// command that does neither fails here. Nothing starts a stack: both answers
// come before any work.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Scripts that hand their arguments to a tool with its own --help (tsc,
 * ESLint, Prettier, Vitest, docker compose), and the test chain itself.
 */
const TOOL_INVOCATIONS = new Set([
  'test',
  'test:lane:checks-then-failure-lab',
  'test:lane:e2e',
  'test:checks',
  'test:fast',
  'test:unit',
  'test:int',
  'test:e2e',
  'test:browser',
  'test:eventstoredb-cluster',
  'docs:console',
  'typecheck',
  'lint',
  'lint:eslint',
  'lint:format',
  'lint:migrations',
  'format',
]);

const scriptLines = z
  .object({ scripts: z.record(z.string(), z.string()) })
  .parse(JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8'))).scripts;
const scripts = Object.keys(scriptLines);
const commands = scripts.filter((name) => !TOOL_INVOCATIONS.has(name));
/** What a tool invocation's line starts with: the tool, or another script, or its settings. */
const TOOL_LINE = /^(?:[A-Z_]+=\S+ )*(?:vitest|tsc|eslint|prettier|pnpm run|docker compose)\b/;

function run(command: string, argument: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('pnpm', ['--silent', 'run', command, argument], {
      cwd: ROOT,
      // No stack may start, whatever the command: a --help that forgot itself fails fast.
      env: { ...process.env, STACK_READY_TIMEOUT_MS: '1000' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const STACK_TRACE = /^\s+at |node:internal|Error \[ERR_/m;

describe('every pnpm command of the repository', () => {
  it('leaves out only scripts that hand their arguments to a tool', () => {
    const leftOut = scripts.filter((name) => TOOL_INVOCATIONS.has(name));
    expect(leftOut.filter((name) => !TOOL_LINE.test(scriptLines[name] ?? ''))).toEqual([]);
  });

  it.each(commands)('pnpm %s --help prints its usage and exits 0', async (command) => {
    const { code, stdout, stderr } = await run(command, '--help');
    expect(stderr, stderr).not.toMatch(STACK_TRACE);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/usage:/i);
    expect(stdout).toContain(`pnpm ${command}`);
  });

  it.each(commands)(
    'pnpm %s --no-such-option is refused in one line, with no stack trace',
    async (command) => {
      const { code, stderr } = await run(command, '--no-such-option');
      expect(code).not.toBe(0);
      expect(stderr).not.toMatch(STACK_TRACE);
      const lines = stderr.split('\n').filter((line) => line.trim() !== '');
      expect(lines, stderr).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^pnpm ${command}: .*--no-such-option`));
    },
  );
});
