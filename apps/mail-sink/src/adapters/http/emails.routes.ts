import { EmailList, ListEmailsQuery } from '@effectively-once/contracts';
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import type { Mailbox } from '../../domain/mailbox.js';

/** GET /emails[?to=][&orderId=]: kept messages, oldest first. */
export function registerEmailRoutes(app: FastifyZodInstance, deps: { mailbox: Mailbox }): void {
  app.get(
    '/emails',
    { schema: { querystring: ListEmailsQuery, response: { 200: EmailList } } },
    (request) => ({ emails: deps.mailbox.list(request.query) }),
  );
}
