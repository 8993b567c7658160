// Read-only views into the saga's other participants, for watching what an
// order did: the payment attempt, the notifications, the provider's ledger and
// the mail the customer received.
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  EmailList,
  ListEmailsQuery,
  Ledger,
  LedgerQuery,
  ListNotificationsQuery,
  NotificationList,
  OrderIdParams,
  PaymentView,
} from '@effectively-once/contracts';
import { INVALID_REQUEST, UPSTREAM_FAILURES, jsonResponse, problemResponse } from '../responses.js';

export const inspectionPaths: ZodOpenApiPathsObject = {
  '/api/payments/ledger': {
    get: {
      operationId: 'getPaymentLedger',
      tags: ['payments'],
      summary: "The payment provider's ledger: every authorization it granted",
      description:
        'Read from the stand-in card processor. An order charged twice would show two authorizations for one order: the effectively-once promise says it never does.',
      requestParams: { query: LedgerQuery },
      responses: {
        '200': jsonResponse(
          'Every authorization, oldest first, with its idempotency key and status.',
          Ledger,
        ),
        ...INVALID_REQUEST,
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/payments/{orderId}': {
    get: {
      operationId: 'getPayment',
      tags: ['payments'],
      summary: "An order's payment attempt, as the payment service records it",
      requestParams: { path: OrderIdParams },
      responses: {
        '200': jsonResponse("The order's payment attempt.", PaymentView),
        ...INVALID_REQUEST,
        '404': problemResponse(['PAYMENT_NOT_FOUND']),
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/notifications': {
    get: {
      operationId: 'listNotifications',
      tags: ['notifications'],
      summary: 'The emails the notification service sent for one order',
      requestParams: { query: ListNotificationsQuery },
      responses: {
        '200': jsonResponse(
          'The notifications sent for the order: empty until the order is confirmed or cancelled.',
          NotificationList,
        ),
        ...INVALID_REQUEST,
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/emails': {
    get: {
      operationId: 'listEmails',
      tags: ['emails'],
      summary: 'The mail the SMTP sink received',
      description:
        '`duplicate: true` marks a message whose Message-ID arrived before: a customer emailed twice for one event.',
      requestParams: { query: ListEmailsQuery },
      responses: {
        '200': jsonResponse(
          'The received mail, filtered by `to` and `orderId` when given.',
          EmailList,
        ),
        ...INVALID_REQUEST,
        ...UPSTREAM_FAILURES,
      },
    },
  },
};
