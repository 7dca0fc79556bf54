/**
 * DNS-rebinding protection: the `Host` header must name this server and a browser `Origin`, when sent,
 * must be one it trusts.
 *
 * @packageDocumentation
 */
import type { IncomingHttpHeaders } from 'node:http';
import { HOST_REFUSAL_CODES } from './refusal-codes.ts';
import { NOTHING_CHANGED, clip, type HttpRefusal } from './http-refusal.ts';

/** Which `Host` and `Origin` values a host accepts; `false` turns a check off (e.g. behind a proxy that checks). */
export interface HostOriginPolicy {
  readonly allowedHosts: readonly string[] | false;
  readonly allowedOrigins: readonly string[] | false;
  /** Whether the lists are the loopback defaults, which refusal messages may name. */
  readonly defaults: boolean;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The default policy for a server bound on `port`: the loopback names (`127.0.0.1`, `localhost`,
 * `[::1]`) with that port as hosts, and the same as `http://` origins.
 */
export function loopbackPolicy(port: number): HostOriginPolicy {
  return {
    allowedHosts: LOOPBACK_NAMES.map((name) => `${name}:${port}`),
    allowedOrigins: LOOPBACK_NAMES.map((name) => `http://${name}:${port}`),
    defaults: true,
  };
}

/**
 * Checks the `Host` and `Origin` headers of a request. A host entry without a port accepts any port;
 * names compare case-insensitively. A request without `Origin` (non-browser clients) passes the origin
 * check. A refusal is HTTP 403 with code -31403 (`Forbidden`).
 */
export function checkHostAndOrigin(
  headers: IncomingHttpHeaders,
  policy: HostOriginPolicy,
): HttpRefusal | undefined {
  if (policy.allowedHosts !== false) {
    const host = headers.host;
    if (host === undefined || !hostAllowed(host, policy.allowedHosts)) {
      return forbidden('Host', host, policy.defaults ? policy.allowedHosts : undefined);
    }
  }
  if (policy.allowedOrigins !== false) {
    const origin = headers.origin;
    if (origin !== undefined && !originAllowed(origin, policy.allowedOrigins)) {
      return forbidden('Origin', origin, policy.defaults ? policy.allowedOrigins : undefined);
    }
  }
  return undefined;
}

function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const wanted = splitHost(host.toLowerCase());
  return allowed.some((entry) => {
    const candidate = splitHost(entry.toLowerCase());
    return candidate.name === wanted.name && (candidate.port === undefined || candidate.port === wanted.port);
  });
}

function splitHost(value: string): { name: string; port: string | undefined } {
  const close = value.startsWith('[') ? value.indexOf(']') : -1;
  const colon = value.lastIndexOf(':');
  if (colon > close && colon !== -1) return { name: value.slice(0, colon), port: value.slice(colon + 1) };
  return { name: value, port: undefined };
}

function originAllowed(origin: string, allowed: readonly string[]): boolean {
  const normalized = normalizeOrigin(origin);
  return normalized !== undefined && allowed.some((entry) => normalizeOrigin(entry) === normalized);
}

function normalizeOrigin(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function forbidden(
  header: 'Host' | 'Origin',
  received: string | undefined,
  accepted: readonly string[] | undefined,
): HttpRefusal {
  const what =
    received === undefined
      ? `No ${header} header was sent`
      : `The ${header} header "${clip(received)}" is not one this server accepts`;
  const acceptedText = accepted === undefined ? 'the names its operator configured' : accepted.join(', ');
  return {
    status: 403,
    code: HOST_REFUSAL_CODES.Forbidden,
    reason: header === 'Host' ? 'host' : 'origin',
    message:
      `${what}; accepted: ${acceptedText}. ` +
      `Connect to the server by one of those names (this check protects local servers from DNS rebinding); ` +
      `retrying unchanged will be refused again. ${NOTHING_CHANGED}`,
    data: { header: header.toLowerCase() },
  };
}
