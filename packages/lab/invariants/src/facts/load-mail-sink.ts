// The mail sink over HTTP. It is a separate process that may be down or
// restarted (it keeps mail in memory), so "unreachable" is a fact the email
// check reports as pending, not an error of the audit.
import { EmailList, type ReceivedEmail } from '@effectively-once/contracts';
import type { MailSinkFacts } from './facts.types.js';

async function fetchEmails(url: URL): Promise<ReceivedEmail[]> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`GET ${url.pathname} answered ${String(response.status)}`);
  return EmailList.parse(await response.json()).emails;
}

/**
 * Every kept email, or only the scoped orders' ones.
 *
 * @example
 * const mailSink = await loadMailSink('http://127.0.0.1:3006', [orderId]);
 */
export async function loadMailSink(
  mailSinkUrl: string,
  orderIds: readonly string[] | undefined,
): Promise<MailSinkFacts> {
  const urlFor = (orderId?: string): URL => {
    const url = new URL('/emails', mailSinkUrl);
    if (orderId !== undefined) url.searchParams.set('orderId', orderId);
    return url;
  };
  try {
    const lists =
      orderIds === undefined
        ? [await fetchEmails(urlFor())]
        : await Promise.all(orderIds.map((orderId) => fetchEmails(urlFor(orderId))));
    return { reachable: true, emails: lists.flat() };
  } catch (error) {
    return { reachable: false, reason: `${mailSinkUrl}: ${describe(error)}` };
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch reports "fetch failed" and keeps the reason (ECONNREFUSED…) as its cause.
  return error.cause instanceof Error ? `${error.message} (${error.cause.message})` : error.message;
}
