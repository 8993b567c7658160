// SMTP has no instrumentation: the notification's send is a CLIENT span made
// here, and its trace context travels in the message's own `traceparent`
// header, so the mail sink's SERVER span for the received message is its
// child and the order's trace ends with the email arriving.
import { context, propagation, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { contextOfEvent, tracer } from './message-context.js';

async function endedAfter<T>(span: Span, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs `send` inside a CLIENT span `smtp send`, giving it the headers that
 * carry the span's trace context (empty with no SDK running).
 *
 * @example
 * await inSmtpSendSpan({ host, port, messageId }, (headers) => transport.sendMail({ ...mail, headers }));
 */
export function inSmtpSendSpan<T>(
  input: { host: string; port: number; messageId: string },
  send: (traceHeaders: Record<string, string>) => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(
    'smtp send',
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'server.address': input.host,
        'server.port': input.port,
        'eo.email.message_id': input.messageId,
      },
    },
    (span) =>
      endedAfter(span, () => {
        const traceHeaders: Record<string, string> = {};
        propagation.inject(context.active(), traceHeaders);
        return send(traceHeaders);
      }),
  );
}

/**
 * Runs `receive` inside a SERVER span `smtp receive`, the child of the span
 * named by the message's `traceparent` header when it has one.
 */
export function inSmtpReceiveSpan<T>(
  input: { traceparent: string | undefined; messageId: string | undefined },
  receive: () => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(
    'smtp receive',
    {
      kind: SpanKind.SERVER,
      attributes: input.messageId === undefined ? {} : { 'eo.email.message_id': input.messageId },
    },
    contextOfEvent(
      input.traceparent === undefined ? undefined : { traceparent: input.traceparent },
    ),
    (span) => endedAfter(span, receive),
  );
}
