/**
 * Reads a page form's body (`application/x-www-form-urlencoded`, at most 16 KiB).
 *
 * @packageDocumentation
 */
import type { IncomingMessage } from 'node:http';

/** Largest accepted form body. */
export const MAX_FORM_BYTES = 16 * 1024;

/** The fields of a form POST, or why it was refused (too large, not a form). */
export type FormBody =
  | { readonly ok: true; readonly fields: URLSearchParams }
  | { readonly ok: false; readonly status: 413 | 415; readonly message: string };

/** Reads and parses the form; never throws for a bad body. */
export async function readForm(req: IncomingMessage): Promise<FormBody> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    req.resume();
    return {
      ok: false,
      status: 415,
      message: `The form was sent as "${type ?? ''}"; this page accepts application/x-www-form-urlencoded only.`,
    };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) {
      req.resume();
      return { ok: false, status: 413, message: `The form is larger than ${MAX_FORM_BYTES} bytes.` };
    }
    chunks.push(chunk);
  }
  return { ok: true, fields: new URLSearchParams(Buffer.concat(chunks).toString('utf8')) };
}
