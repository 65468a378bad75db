/**
 * Errors raised below the routes, in the contract's `{"error": message}` shape too: what Node's HTTP parser
 * refuses before Fastify sees a request (a malformed request line or header, headers over the size limit, a
 * request not received in time), and what Fastify's router refuses (a path that does not decode, a path
 * parameter over its length limit). Each answer closes the connection: after a malformed request, nothing
 * more on it can be trusted.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './error-handler.ts';
import type { Timeouts } from './timeouts.ts';

/** The `clientErrorHandler` of Fastify's options: answers on the raw socket, as no request exists yet. */
export function clientErrorHandler(timeouts: Timeouts, maxHeaderBytes: number) {
  return (error: NodeJS.ErrnoException & { bytesParsed?: number }, socket: Socket): void => {
    // A connection the client reset, or one already gone: there is nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    let status = 400;
    let message = `Malformed HTTP request (${error.code ?? 'parse error'}).`;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      status = 408;
      message = `The request was not received in time: its headers must arrive within ${seconds(timeouts.headersMs)} and all of it within ${seconds(timeouts.requestMs)}.`;
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      status = 431;
      message = `The request line and headers are larger than ${maxHeaderBytes} bytes.`;
    }
    if (socket.writable) {
      const body = JSON.stringify(errorBody(message));
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

/** The `frameworkErrors` of Fastify's options: the router's refusals, through the one reply path. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const path = request.raw.url ?? '';
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(414).header('connection', 'close').send(errorBody(`A path segment of '${path.slice(0, 200)}' is too long.`));
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).header('connection', 'close').send(errorBody(`The path '${path.slice(0, 200)}' is not valid (a %-escape does not decode).`));
    return;
  }
  void reply.code(400).send(errorBody(error.message));
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}
