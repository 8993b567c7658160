// Every mistake the failure lab can switch on for a consumer: the marker's
// (attempt flows in ./mistakes) and the delivery's
// own (./ack-before-commit.ts). The lab plugs them in through the kit's
// delivery hooks and processOnce's processing hooks, which never import them.
import { MARKER_MISTAKES } from './mistakes/index.js';

export const MISTAKES = [...MARKER_MISTAKES, 'ack-before-commit'] as const;
export type Mistake = (typeof MISTAKES)[number];
