// Which consumers of a group answer an append's notification. When every
// consumer of a group answered, each ran a round (es_consume: a pump, the
// horizon, a commit) although one lease takes what the append brought: with
// two replicas of a service, half its rounds found nothing. Now each stream
// an announcement names goes to one live consumer of the group, the same one
// in every process: the members (the sessions holding the group's member lock,
// leases.ts) sorted by backend pid, and the stream's hash picks one. An
// announcement of several streams wakes as many consumers as it names, at
// most all, so a burst still spreads over the group.
//
// The choice only saves rounds; it never decides delivery. A chosen consumer
// that died, is busy to its in-flight limit, or was picked from a list a
// moment old leaves the message in the group, where the others' polls (each
// poll interval) and its own next round find it; leases and their expiry
// are untouched (ADR 0039).
import { fnv1a32 } from './fnv1a.js';

/**
 * Who answers an append: one consumer of each group per stream (the default),
 * or every consumer of the group (as before ADR 0039): a round per consumer
 * per append, but an append never waits for a chosen consumer that is busy to
 * its in-flight limit while another has room.
 */
export type WakeConsumers = 'one' | 'all';

/**
 * Whether consumer `self` (its session's backend pid) answers an announcement
 * of `streams`, among the group's `members`. Not listed yet (it has just
 * joined, or the list could not be read), or an announcement without stream
 * names: it answers, as every consumer did before.
 *
 * @example
 * isChosenToWake({ streams: ['order-42'], members: [101, 202], self: 101 }); // true for one of the two pids, false for the other
 */
export function isChosenToWake(input: {
  streams: readonly string[] | undefined;
  members: readonly number[];
  self: number;
}): boolean {
  const { streams, members, self } = input;
  if (streams === undefined || streams.length === 0 || !members.includes(self)) return true;
  const sorted = [...members].sort((a, b) => a - b);
  return streams.some((stream) => sorted[fnv1a32(stream) % sorted.length] === self);
}
