/**
 * The one seam where the HTTP host meets the SDK's web-standard handler (`createMcpHandler().fetch`), in place of
 * `toNodeHandler` from `@modelcontextprotocol/node`. The host has already read, size-checked and parsed the body,
 * so the `Request` built here carries the method, URL, headers and an abort signal (fired when the client goes
 * away, which cancels the call) but no body: the handler reads `parsedBody` and never the body (the SDK's
 * documented fast path). `toNodeHandler` would serialise the parsed body again, encode it and copy it into the
 * `Request`. A JSON answer is written to the socket in one piece; an SSE answer is streamed with backpressure, as
 * `toNodeHandler` does.
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/server';

/** The web-standard face of an MCP handler. */
export interface FetchHandler {
  fetch(request: Request, options: { authInfo?: AuthInfo; parsedBody?: unknown }): Promise<Response>;
}

function requestHeaders(req: IncomingMessage): [string, string][] {
  const headers: [string, string][] = [];
  // rawHeaders keeps repeated headers apart and costs no object walk.
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.startsWith(':')) continue;
    const lower = name.toLowerCase();
    // The body is not forwarded, so neither are the headers that describe it.
    if (lower === 'content-length' || lower === 'transfer-encoding' || lower === 'content-encoding') continue;
    headers.push([name, raw[i + 1]!]);
  }
  return headers;
}

async function streamBody(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
  let drained: (() => void) | undefined;
  const onDrain = (): void => {
    drained?.();
    drained = undefined;
  };
  res.on('drain', onDrain);
  const closed = new Promise<void>((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (signal.aborted) break;
      if (!res.write(chunk))
        await Promise.race([new Promise<void>((resolve) => (drained = resolve)), closed]);
    }
  } catch {
    // The client went away or the stream failed; the response ends below.
  } finally {
    res.off('drain', onDrain);
  }
}

/**
 * Serves `req` through `handler` with the body already parsed (`parsedBody`) and the caller's `authInfo`, writing
 * the handler's `Response` to `res`. A throw of the handler becomes a JSON-RPC -32603 answer (HTTP 500) carrying
 * the request id, and is passed to `onerror`.
 */
export async function serveThroughFetch(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody: unknown,
  authInfo: AuthInfo,
  onerror: (error: Error) => void,
): Promise<void> {
  const abort = new AbortController();
  let finished = false;
  res.on('close', () => {
    if (!finished) abort.abort();
  });
  let response: Response;
  try {
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method ?? 'POST',
      headers: requestHeaders(req),
      signal: abort.signal,
    });
    response = await handler.fetch(request, { authInfo, parsedBody });
  } catch (error) {
    onerror(error instanceof Error ? error : new Error(String(error)));
    const id = (parsedBody as { id?: unknown } | null)?.id;
    response = Response.json(
      {
        jsonrpc: '2.0',
        error: { code: -32603, message: 'Internal server error' },
        id: typeof id === 'string' || typeof id === 'number' ? id : null,
      },
      { status: 500 },
    );
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  if (response.body === null) {
    finished = true;
    res.writeHead(response.status, headers).end();
    return;
  }
  if (!(headers['content-type'] ?? '').startsWith('text/event-stream')) {
    const body = Buffer.from(await response.arrayBuffer());
    finished = true;
    headers['content-length'] = String(body.byteLength);
    res.writeHead(response.status, headers).end(body);
    return;
  }
  res.writeHead(response.status, headers);
  await streamBody(response, res, abort.signal);
  finished = true;
  res.end();
}
