// A bundle's source map keeps only the mappings into the repository's own
// files. Node reads and decodes every map at load under --enable-source-maps;
// the npm code in a bundle is most of its map, and cost each process about
// 0.3 s of CPU at start for stack-trace lines that would point at
// node_modules JavaScript anyway. Those frames keep the bundle's file and line.

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Map(Array.from(BASE64, (char, index) => [char, index]));

/** One segment's base64 VLQ fields (source map v3), relative as written. */
function decodeSegment(text: string): number[] {
  const values: number[] = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = DIGIT.get(char) ?? 0;
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
      continue;
    }
    values.push(value & 1 ? -(value >>> 1) : value >>> 1);
    value = 0;
    shift = 0;
  }
  return values;
}

function encodeValue(value: number): string {
  let vlq = value < 0 ? (-value << 1) | 1 : value << 1;
  let text = '';
  do {
    let digit = vlq & 31;
    vlq >>>= 5;
    if (vlq > 0) digit |= 32;
    text += BASE64[digit] ?? '';
  } while (vlq > 0);
  return text;
}

interface SourceMapV3 {
  version: 3;
  sources: string[];
  names: string[];
  mappings: string;
  [key: string]: unknown;
}

/** Absolute [column, source, line, sourceColumn, name?] segments, one array per generated line. */
export function decodeMappings(mappings: string): number[][][] {
  const state = [0, 0, 0, 0, 0];
  return mappings.split(';').map((line) => {
    state[0] = 0;
    if (line === '') return [];
    return line.split(',').map((text) =>
      decodeSegment(text).map((delta, field) => {
        state[field] = (state[field] ?? 0) + delta;
        return state[field];
      }),
    );
  });
}

export function encodeMappings(lines: readonly (readonly number[])[][]): string {
  const state = [0, 0, 0, 0, 0];
  return lines
    .map((segments) => {
      state[0] = 0;
      return segments
        .map((segment) =>
          segment
            .map((value, field) => {
              const delta = value - (state[field] ?? 0);
              state[field] = value;
              return encodeValue(delta);
            })
            .join(''),
        )
        .join(',');
    })
    .join(';');
}

/**
 * The map with only the mappings whose source `keep` accepts, and only the
 * sources and names those use.
 *
 * @example
 * const slim = keepSources(JSON.parse(mapText), (source) => !source.includes('/node_modules/'));
 */
export function keepSources(map: SourceMapV3, keep: (source: string) => boolean): SourceMapV3 {
  const sourceIndex = new Map<number, number>();
  const nameIndex = new Map<number, number>();
  const sources: string[] = [];
  const names: string[] = [];
  const renumber = (index: number, table: Map<number, number>, from: string[], to: string[]) => {
    if (!table.has(index)) {
      table.set(index, to.length);
      to.push(from[index] ?? '');
    }
    return table.get(index) ?? 0;
  };
  const lines = decodeMappings(map.mappings).map((segments) =>
    segments
      .filter(([, source]) => source !== undefined && keep(map.sources[source] ?? ''))
      .map(([column = 0, source = 0, line = 0, sourceColumn = 0, ...name]) => [
        column,
        renumber(source, sourceIndex, map.sources, sources),
        line,
        sourceColumn,
        ...name.map((index) => renumber(index, nameIndex, map.names, names)),
      ]),
  );
  return { ...map, sources, names, mappings: encodeMappings(lines) };
}

/** A bundle's map text without the mappings into node_modules. */
export function withoutNodeModules(mapText: string): string {
  const map = JSON.parse(mapText) as SourceMapV3;
  return JSON.stringify(keepSources(map, (source) => !source.includes('node_modules/')));
}
