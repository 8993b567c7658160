// How a failed send is classified, from the error nodemailer gives: the rule
// that decides between waiting an outage out, parking a refusal, and the usual
// counted retry.
import { describe, expect, it } from 'vitest';
import { sendFailure } from './mailer.js';

const MESSAGE_ID = '<order-1.order_confirmed@effectively-once.local>';
const nodemailerError = (fields: Record<string, unknown>) =>
  Object.assign(new Error('smtp failed'), fields);

describe('sendFailure', () => {
  it.each([
    ['a refused connection', { code: 'ECONNECTION' }],
    ['a reset socket', { code: 'ESOCKET' }],
    ['a timeout', { code: 'ETIMEDOUT' }],
    ['a 421 "try again later"', { responseCode: 421 }],
    ['a 451 "not stored"', { responseCode: 451 }],
  ])('given %s, when classified, then it is waited out (uncounted, never parked)', (_, fields) => {
    expect(sendFailure(MESSAGE_ID, nodemailerError(fields))).toMatchObject({
      kind: 'retryable',
      untilSuccess: true,
    });
  });

  it('given a 5xx reply, when classified, then it is terminal with the reply in the reason', () => {
    const failure = sendFailure(
      MESSAGE_ID,
      nodemailerError({ responseCode: 550, message: '550 no such user' }),
    );
    expect(failure).toMatchObject({ kind: 'terminal' });
    expect(failure.reason).toContain('550 no such user');
  });

  it.each([
    ['a rejected envelope', nodemailerError({ code: 'EENVELOPE' })],
    ['a bug', new TypeError('cannot read properties of undefined')],
  ])(
    'given %s, when classified, then it is an ordinary counted retry that parks in the end',
    (_, error) => {
      expect(sendFailure(MESSAGE_ID, error)).toMatchObject({
        kind: 'retryable',
        untilSuccess: false,
      });
    },
  );
});
