// POST /v1/traces: the console as an OTLP/HTTP receiver, so that `pnpm start`
// shows traces with nothing installed. The stack's processes export here as
// JSON (the supervisor sets OTEL_EXPORTER_OTLP_PROTOCOL=http/json); answers
// follow the OTLP/HTTP specification (opentelemetry-proto
// docs/specification.md): 200 with an ExportTraceServiceResponse, its
// `partialSuccess` set only when spans were refused; a google.rpc.Status for
// 4xx, whose codes tell the exporter not to retry.
//
// Its callers are processes, not pages, so the console's guard for browser
// actions (same-origin.ts, which app.ts skips for this path) is replaced by
// its own: a request with an Origin header comes from a browser and is
// refused, and anything but JSON is 415 before a byte of it is parsed, which
// covers every body a cross-site form can send. The known-host guard still
// applies: exporters address the console as 127.0.0.1.
import { createGunzip } from 'node:zlib';
import { ProblemError, type FastifyZodInstance } from '@effectively-once/service-kit';
import type { FastifyError, FastifyReply, FastifyRequest, RequestPayload } from 'fastify';
import { z } from 'zod';
import { ExportTraceServiceRequest, readExport } from './otlp-json.js';
import type { SpanStore } from './span-store.js';

export const OTLP_TRACES_PATH = '/v1/traces';

/** The body limit the specification recommends, counted after decompression. */
const MAX_BODY_BYTES = 20 * 1024 * 1024;

const ExportTraceServiceResponse = z.object({
  partialSuccess: z
    // rejectedSpans is an int64: a decimal string in the JSON mapping.
    .object({ rejectedSpans: z.string(), errorMessage: z.string() })
    .optional(),
});

/** google.rpc.Status as JSON; `code` is left out, as the specification allows. */
interface Status {
  message: string;
  details?: {
    '@type': 'type.googleapis.com/google.rpc.BadRequest';
    fieldViolations: { field: string; description: string }[];
  }[];
}

const PROTOBUF_REFUSAL =
  'The console receives OTLP/HTTP as JSON only (Content-Type: application/json): ' +
  'set OTEL_EXPORTER_OTLP_PROTOCOL=http/json, or send protobuf to a collector (infra/README.md).';

function statusOf(error: FastifyError | ProblemError): { httpStatus: number; body: Status } {
  if (error instanceof ProblemError) {
    return { httpStatus: error.status, body: { message: error.detail ?? error.title } };
  }
  const httpStatus = error.statusCode ?? 500;
  if (httpStatus === 415) {
    return { httpStatus, body: { message: PROTOBUF_REFUSAL } };
  }
  if (error.validation !== undefined) {
    const fieldViolations = error.validation.map((issue) => ({
      field: issue.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      description: issue.message ?? 'is not valid',
    }));
    return {
      httpStatus: 400,
      body: {
        message: `Not an ExportTraceServiceRequest: ${fieldViolations.map((v) => `${v.field || '(body)'} ${v.description}`).join('; ')}`,
        details: [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations }],
      },
    };
  }
  return { httpStatus, body: { message: httpStatus >= 500 ? 'Internal error' : error.message } };
}

function sendStatus(reply: FastifyReply, httpStatus: number, body: Status): void {
  void reply.code(httpStatus).type('application/json').send(body);
}

/** A browser announces itself with Origin; an exporter in a process never does. */
function refuseBrowsers(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (request.headers.origin === undefined) {
    done();
    return;
  }
  sendStatus(reply, 403, {
    message: 'The OTLP receiver takes spans from the stack’s processes, not from web pages.',
  });
}

/** `Content-Encoding: gzip` (an exporter MAY compress): the body limit then counts the inflated bytes. */
function gunzipWhenCompressed(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: RequestPayload,
  done: (error: Error | null, payload?: RequestPayload) => void,
): void {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding === undefined || encoding === 'identity') {
    done(null, payload);
    return;
  }
  if (encoding !== 'gzip') {
    const unsupported = new Error(`Content-Encoding ${encoding} is not supported (gzip is).`);
    done(Object.assign(unsupported, { statusCode: 415 }));
    return;
  }
  const gunzip = createGunzip();
  const inflated: RequestPayload = Object.assign(gunzip, { receivedEncodedLength: 0 });
  // Fastify compares Content-Length with the bytes that came over the wire, not the inflated ones.
  payload.on('data', (chunk: Buffer) => {
    inflated.receivedEncodedLength = (inflated.receivedEncodedLength ?? 0) + chunk.length;
  });
  inflated.on('error', (error: Error & { statusCode?: number }) => {
    error.statusCode = 400;
  });
  payload.pipe(gunzip);
  done(null, inflated);
}

/**
 * @example
 * registerOtlpReceiver(app, { spans: createSpanStore() }); // then POST /v1/traces
 */
export function registerOtlpReceiver(app: FastifyZodInstance, deps: { spans: SpanStore }): void {
  void app.register((scope: FastifyZodInstance, _options, registered) => {
    // Status documents instead of the console's problem documents, on this route only.
    scope.setErrorHandler((error: FastifyError | ProblemError, request, reply) => {
      const { httpStatus, body } = statusOf(error);
      if (httpStatus >= 500) request.log.error({ err: error }, 'OTLP export failed');
      // A 415 for x-protobuf is no server fault but worth one line: a misconfigured exporter.
      else request.log.warn({ status: httpStatus, reason: body.message }, 'OTLP export refused');
      sendStatus(reply, httpStatus, body);
    });
    scope.post(
      OTLP_TRACES_PATH,
      {
        bodyLimit: MAX_BODY_BYTES,
        // Every process exports every few seconds: a request line each would bury the
        // console's log. Refusals still log, at warn.
        logLevel: 'warn',
        onRequest: refuseBrowsers,
        preParsing: gunzipWhenCompressed,
        schema: { body: ExportTraceServiceRequest, response: { 200: ExportTraceServiceResponse } },
      },
      (request) => {
        const read = readExport(request.body);
        const stored = deps.spans.add(read.spans);
        const rejected = read.rejectedSpans + stored.rejected;
        if (rejected === 0) return {};
        const reasons = [
          read.firstRejection === null ? null : `invalid span: ${read.firstRejection}`,
          stored.reason,
        ].filter((reason) => reason !== null);
        request.log.warn({ rejected, reasons }, 'OTLP spans refused');
        return {
          partialSuccess: { rejectedSpans: String(rejected), errorMessage: reasons.join('; ') },
        };
      },
    );
    registered();
  });
}
