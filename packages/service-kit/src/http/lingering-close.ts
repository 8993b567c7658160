// When the server answers before a request's body has all arrived (a 413 on
// its Content-Length, a chunked body refused past the limit), Fastify closes
// the connection after the answer. Closed at once, the bytes the client is
// still sending reach a socket that is gone, the kernel answers them with a
// reset, and the client's write can fail before it has read the answer: an
// ordinary fetch then reports "fetch failed" (EPIPE) instead of the 413. Like
// nginx's lingering close, the server sends its answer and its FIN, goes on
// reading and discarding what still comes, and closes when the client has
// finished, so that the answer is read.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Makes the socket's coming close a lingering one. Node closes the socket of
 * a `Connection: close` response with `destroySoon()` once the answer is
 * written; this socket's `destroySoon` half-closes instead, and destroys it
 * when the client ends its side or after maxMs. Node's HTTP parser stays
 * attached and discards the rest of the body (it reads the socket's handle
 * itself, so there is no 'data' event to watch for quiet). `lingering` holds
 * the socket meanwhile, for a shutdown to end it.
 */
export function lingerBeforeClose(socket: Socket, maxMs: number, lingering: Set<Socket>): void {
  socket.destroySoon = function lingeringClose(this: Socket): void {
    if (this.destroyed || this.readableEnded) {
      this.destroy();
      return;
    }
    lingering.add(this);
    const timer = setTimeout(() => this.destroy(), maxMs);
    timer.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => {
      clearTimeout(timer);
      lingering.delete(this);
    });
    this.end();
  };
}

/**
 * An onSend hook: an answer that closes the connection while the request's
 * body is still arriving gets a lingering close of at most maxMs, the time
 * the client had for its whole request anyway (the request timeout). Closing
 * the server ends the lingering sockets at once: Node's close waits for them
 * otherwise, and they would hold a graceful shutdown up to maxMs.
 */
export function lingerWhenAnsweredEarly(app: FastifyInstance, maxMs: number): void {
  const lingering = new Set<Socket>();
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!request.raw.complete && reply.getHeader('connection') === 'close') {
      lingerBeforeClose(request.raw.socket, maxMs, lingering);
    }
    done(null, payload);
  });
  app.addHook('preClose', (done) => {
    for (const socket of lingering) socket.destroy();
    done();
  });
}
