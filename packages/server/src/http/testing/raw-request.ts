/**
 * One HTTP request over `node:http` for host tests, so that the Host header and the local address can be
 * chosen freely (the SDK client and `fetch` set them themselves).
 *
 * @packageDocumentation
 */
import { request as httpRequest } from 'node:http';

/** A response as {@link rawRequest} reads it: status, headers and the whole body as text. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** What {@link rawRequest} sends; `method` defaults to POST. */
export interface RawRequestInit {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** The local address to send from, e.g. `127.0.0.2` to act as another client. */
  readonly localAddress?: string;
}

/**
 * Sends one request without keep-alive and reads the whole response. Rejects on a socket error, or when no
 * answer came within 10 s (the request is destroyed then).
 */
export function rawRequest(url: string, init: RawRequestInit = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: init.method ?? 'POST', headers: init.headers, localAddress: init.localAddress, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error('request timed out')));
    req.end(init.body);
  });
}
