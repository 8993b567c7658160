import { EmailList, ListEmailsQuery } from '@effectively-once/contracts';
import type { Mailbox } from '../../domain/mailbox.js';
import type { ZodApp } from './http-server.js';

/** GET /emails[?to=][&orderId=]: kept messages, oldest first. */
export function registerEmailRoutes(app: ZodApp, deps: { mailbox: Mailbox }): void {
  app.get(
    '/emails',
    { schema: { querystring: ListEmailsQuery, response: { 200: EmailList } } },
    (request) => ({ emails: deps.mailbox.list(request.query) }),
  );
}
