import { describe, expect, it } from 'vitest';
import { decideOnSendIntent, type SendIntent } from './send-intent.decide.js';

const leaseMs = 60_000;
const heldSince = new Date('2026-12-01T10:00:00.000Z');
const after = (ms: number) => new Date(heldSince.getTime() + ms);

const given = (input: { recorded: boolean; intent: SendIntent }) => ({
  whenDecidedFor: (messageId: string, now: Date) =>
    decideOnSendIntent({ ...input, messageId, now, leaseMs }),
});

describe('decideOnSendIntent', () => {
  it('given the email recorded, when any message decides, then it sends nothing', () => {
    const decision = given({ recorded: true, intent: { heldBy: 'm-1', heldSince } }).whenDecidedFor(
      'm-2',
      after(0),
    );

    expect(decision).toEqual({ kind: 'already_recorded' });
  });

  it('given an intent held by this message, when it is redelivered long after, then it sends again', () => {
    const decision = given({
      recorded: false,
      intent: { heldBy: 'm-1', heldSince },
    }).whenDecidedFor('m-1', after(leaseMs * 10));

    expect(decision).toEqual({ kind: 'send', takeOver: false });
  });

  it('given an intent held by another message within the lease, when decided, then it waits', () => {
    const decision = given({
      recorded: false,
      intent: { heldBy: 'm-1', heldSince },
    }).whenDecidedFor('m-2', after(leaseMs - 1));

    expect(decision).toEqual({ kind: 'held_by_another', heldBy: 'm-1' });
  });

  it('given an intent held by another message past the lease, when decided, then it takes over and sends', () => {
    const decision = given({
      recorded: false,
      intent: { heldBy: 'm-1', heldSince },
    }).whenDecidedFor('m-2', after(leaseMs));

    expect(decision).toEqual({ kind: 'send', takeOver: true });
  });
});
