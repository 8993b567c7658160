import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { decodeMappings, encodeMappings, keepSources } from './source-maps.js';

describe('source map mappings', () => {
  it('decode then encode gives back what esbuild wrote', async () => {
    // Given a real map
    const { map } = await transform(
      'export const add = (a: number, b: number): number => a + b;\nexport function twice(x: number) {\n  return add(x, x);\n}\n',
      { loader: 'ts', sourcemap: 'external', minifyWhitespace: true, sourcefile: 'math.ts' },
    );
    const { mappings } = JSON.parse(map) as { mappings: string };

    // Then it survives the round trip unchanged
    expect(encodeMappings(decodeMappings(mappings))).toBe(mappings);
  });
});

describe('keepSources', () => {
  it('given mappings into our code and into node_modules, then only ours remain, renumbered', () => {
    // Given two generated lines, each with one segment into each source (one named)
    const map = {
      version: 3 as const,
      sources: ['node_modules/x/index.js', 'packages/a/src/a.ts'],
      names: ['unused', 'kept'],
      mappings: encodeMappings([
        [
          [0, 0, 10, 0, 0],
          [5, 1, 3, 2],
        ],
        [
          [0, 1, 4, 0, 1],
          [3, 0, 11, 0],
        ],
      ]),
    };

    // When only our own sources are kept
    const slim = keepSources(map, (source) => !source.includes('node_modules/'));

    // Then the node_modules segments, source and name are gone, the rest points where it did
    expect(slim.sources).toEqual(['packages/a/src/a.ts']);
    expect(slim.names).toEqual(['kept']);
    expect(decodeMappings(slim.mappings)).toEqual([[[5, 0, 3, 2]], [[0, 0, 4, 0, 0]]]);
  });
});
