// The notification service's composition root: `node --import tsx apps/notification/src/server.ts`.
// Its declaration (notification-service.ts); runService opens, starts, serves
// and shuts it down (docs/service-bootstrap.md).
import { runService } from '@effectively-once/service-kit';
// lab:begin
import { openFaultInjection } from '@effectively-once/fault-injection';
import { serviceLineageRoute } from '@effectively-once/service-kit/lineage';
// lab:end
import type { NotificationDatabase } from './adapters/postgres/database.js';
import { createSmtpMailer } from './adapters/smtp/mailer.js';
import { loadNotificationConfig } from './config.js';
import { notificationService } from './notification-service.js';

const config = loadNotificationConfig();
const mailer = createSmtpMailer({
  host: config.SMTP_HOST,
  port: config.SMTP_PORT,
  timeoutMs: config.SMTP_TIMEOUT_MS,
});

await runService<NotificationDatabase>({
  ...notificationService({ config, mailer }),
  // lab:begin
  // Only the lab's console asks it (ADR 0019).
  routes: [serviceLineageRoute()],
  extension: openFaultInjection,
  // lab:end
});
