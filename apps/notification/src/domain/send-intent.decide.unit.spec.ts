import { describe, expect, it } from 'vitest';
import { decideOnSendIntent, type SendIntent } from './send-intent.decide.js';

const leaseMs = 60_000;
const heldSince = new Date('2026-12-01T10:00:00.000Z');
const after = (ms: number) => new Date(heldSince.getTime() + ms);
const heldByMessageId = 'm-1';

const given = (input: { recorded: boolean; intent: SendIntent }) => ({
  whenDecidedBy: (attempt: string, now: Date) =>
    decideOnSendIntent({ ...input, attempt, now, leaseMs }),
});

describe('decideOnSendIntent', () => {
  it('given the email recorded, when any attempt decides, then it sends nothing', () => {
    const decision = given({
      recorded: true,
      intent: { heldBy: 'attempt-1', heldByMessageId, heldSince },
    }).whenDecidedBy('attempt-2', after(0));

    expect(decision).toEqual({ kind: 'already_recorded' });
  });

  it('given an intent this attempt just recorded, when it decides, then it sends', () => {
    const decision = given({
      recorded: false,
      intent: { heldBy: 'attempt-1', heldByMessageId, heldSince },
    }).whenDecidedBy('attempt-1', after(0));

    expect(decision).toEqual({ kind: 'send', takeOver: false });
  });

  it('given an intent held by another attempt within the lease, when decided, then it waits, even for a delivery of the same message', () => {
    const decision = given({
      recorded: false,
      intent: { heldBy: 'attempt-1', heldByMessageId, heldSince },
    }).whenDecidedBy('attempt-2', after(leaseMs - 1));

    expect(decision).toEqual({ kind: 'held_by_another', heldByMessageId, heldSince });
  });

  it('given an intent held by another attempt past the lease, when decided, then it takes over and sends', () => {
    const decision = given({
      recorded: false,
      intent: { heldBy: 'attempt-1', heldByMessageId, heldSince },
    }).whenDecidedBy('attempt-2', after(leaseMs));

    expect(decision).toEqual({ kind: 'send', takeOver: true });
  });

  it('given an intent an attempt that failed let go of, when decided within the lease, then it takes over and sends at once', () => {
    const decision = given({
      recorded: false,
      intent: { heldBy: null, heldByMessageId, heldSince },
    }).whenDecidedBy('attempt-2', after(1));

    expect(decision).toEqual({ kind: 'send', takeOver: true });
  });
});
