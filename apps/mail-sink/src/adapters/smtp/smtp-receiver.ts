// Plain SMTP on loopback: no TLS, no authentication, nothing relayed. Every
// message is parsed and handed to `onEmail`; the client gets 250 once that resolves.
import { simpleParser } from 'mailparser';
import { inSmtpReceiveSpan } from '@effectively-once/service-kit/tracing';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { IncomingEmail } from '../../domain/mailbox.js';
import { toIncomingEmail } from './parsed-email.js';

export interface SmtpReceiver {
  /** The bound port: the one asked for, or the one the OS chose for port 0. */
  readonly port: number;
  listening(): boolean;
  close(): Promise<void>;
}

export interface SmtpReceiverOptions {
  host: string;
  port: number;
  /** The client gets 250 once this resolves, and a 451 (try again later) if it rejects. */
  onEmail: (email: IncomingEmail) => unknown;
  /** Larger messages are refused with 552. */
  maxMessageBytes?: number;
}

/** An SMTP reply with its code, as smtp-server sends an error to the client. */
function smtpError(responseCode: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode });
}

function receive(
  stream: SMTPServerDataStream,
  session: SMTPServerSession,
  onEmail: SmtpReceiverOptions['onEmail'],
): Promise<void> {
  return simpleParser(stream).then(async (parsed) => {
    if (stream.sizeExceeded) throw smtpError(552, 'Message exceeds the size limit');
    const traceparent = parsed.headers.get('traceparent');
    const trace = {
      traceparent: typeof traceparent === 'string' ? traceparent : undefined,
      messageId: parsed.messageId,
    };
    await inSmtpReceiveSpan(trace, async () => {
      try {
        await onEmail(toIncomingEmail(parsed, session.envelope));
      } catch (error) {
        // Not kept, so not accepted: a transient refusal makes the client send it again.
        throw smtpError(
          451,
          `Message not stored: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    });
  });
}

/**
 * @example
 * const smtp = await startSmtpReceiver({ host: '127.0.0.1', port: 0, onEmail: (email) => mailbox.receive(email, new Date()) });
 * console.log(smtp.port);
 */
export async function startSmtpReceiver(options: SmtpReceiverOptions): Promise<SmtpReceiver> {
  const server = new SMTPServer({
    secure: false,
    // A local stand-in: no STARTTLS (there is no certificate) and no AUTH, so
    // any client may deliver, as the services' plain SMTP transport does.
    disabledCommands: ['AUTH', 'STARTTLS'],
    hideSTARTTLS: true,
    authOptional: true,
    size: options.maxMessageBytes ?? 1_000_000,
    logger: false,
    closeTimeout: 5_000,
    onData(stream, session, callback) {
      receive(stream, session, options.onEmail).then(
        () => callback(),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('The SMTP server is not listening on a TCP port.');
  }
  return {
    port: address.port,
    listening: () => server.server.listening,
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}
