import { describe, expect, it } from 'vitest';
import { Mailbox, type IncomingEmail } from './mailbox.js';

const at = new Date('2026-12-01T12:00:00.000Z');

function email(overrides: Partial<IncomingEmail> = {}): IncomingEmail {
  return {
    messageId: '<order-1.order_confirmed@effectively-once.local>',
    from: 'orders@effectively-once.local',
    to: ['ada@example.com'],
    subject: 'Your order is confirmed',
    text: 'Thank you.',
    orderId: 'order-1',
    ...overrides,
  };
}

describe('Mailbox', () => {
  it('given nothing received, when a message arrives, then it is kept and not a duplicate', () => {
    const mailbox = new Mailbox({ capacity: 10 });

    const received = mailbox.receive(email(), at);

    expect(received).toEqual({
      ...email(),
      receivedAt: '2026-12-01T12:00:00.000Z',
      duplicate: false,
    });
    expect(mailbox.list()).toEqual([received]);
  });

  it('given a message, when another with the same Message-ID arrives, then that one is a duplicate', () => {
    const mailbox = new Mailbox({ capacity: 10 });
    mailbox.receive(email(), at);

    const again = mailbox.receive(email({ subject: 'Sent twice' }), at);

    expect(again.duplicate).toBe(true);
    expect(mailbox.list().map((kept) => kept.duplicate)).toEqual([false, true]);
  });

  it('given messages to several people and orders, when filtered, then only the matching ones are listed', () => {
    const mailbox = new Mailbox({ capacity: 10 });
    mailbox.receive(email({ messageId: '<a>', to: ['Ada@Example.com'], orderId: 'order-1' }), at);
    mailbox.receive(email({ messageId: '<b>', to: ['bob@example.com'], orderId: 'order-2' }), at);
    mailbox.receive(email({ messageId: '<c>', to: ['ada@example.com'], orderId: null }), at);

    const ids = (filter: Parameters<Mailbox['list']>[0]) =>
      mailbox.list(filter).map((kept) => kept.messageId);

    expect(ids({ to: 'ada@example.com' })).toEqual(['<a>', '<c>']);
    expect(ids({ orderId: 'order-2' })).toEqual(['<b>']);
    expect(ids({ to: 'ada@example.com', orderId: 'order-1' })).toEqual(['<a>']);
    expect(ids({ to: 'nobody@example.com' })).toEqual([]);
  });

  it('given a full mailbox, when a message arrives, then the oldest is dropped and its Message-ID forgotten', () => {
    const mailbox = new Mailbox({ capacity: 2 });
    mailbox.receive(email({ messageId: '<first>' }), at);
    mailbox.receive(email({ messageId: '<second>' }), at);

    mailbox.receive(email({ messageId: '<third>' }), at);
    const firstAgain = mailbox.receive(email({ messageId: '<first>' }), at);

    expect(mailbox.list().map((kept) => kept.messageId)).toEqual(['<third>', '<first>']);
    expect(firstAgain.duplicate).toBe(false);
  });
});
