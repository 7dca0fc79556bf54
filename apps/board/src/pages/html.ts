/**
 * Server-rendered HTML for the board's pages: escaping, and the one layout every page uses (no script, one
 * inline style allowed by its hash in the Content-Security-Policy).
 *
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';

/** HTML that is already safe to insert; build it with {@link html}. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** Escapes text for HTML content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

type Part = string | number | SafeHtml | readonly Part[] | undefined | null | false;

function render(part: Part): string {
  if (part === undefined || part === null || part === false) return '';
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join('');
  return escapeHtml(String(part));
}

/** Tagged template: every interpolated value is escaped unless it is {@link SafeHtml} (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** The only stylesheet; allowed by hash, so no other inline style or script can run. */
export const PAGE_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b;background:#fff}
h1{font-size:1.4rem}label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input,select{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}
button{font:inherit;padding:.5rem 1rem;margin:1rem .5rem 0 0;cursor:pointer}
fieldset{border:1px solid #bbb;margin:1rem 0;padding:.5rem 1rem}
.error{border-left:4px solid #b00020;padding:.25rem .75rem;background:#fdecee}
.note{color:#444;font-size:.9rem}code{background:#f2f2f2;padding:0 .2rem}
:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}`;

/** The CSP source allowing {@link PAGE_STYLE}. */
export const PAGE_STYLE_HASH = `'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;

/** Wraps `body` in the page layout: language, viewport, title, a main landmark. */
export function layout(title: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>${title} · Recourse Board</title>
        <style>
          ${new SafeHtml(PAGE_STYLE)}
        </style>
      </head>
      <body>
        <main>
          <h1>${title}</h1>
          ${body}
        </main>
      </body>
    </html> `.value;
}
