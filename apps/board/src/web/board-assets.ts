/**
 * The board pages' stylesheet and their one script. The script only enhances: every page works without it. On
 * the board it asks `/board/changes` every two seconds for a fingerprint of the tasks and, when it changed,
 * fetches the same page again and swaps in its columns, announcing the update to screen readers.
 *
 * @packageDocumentation
 */
import type { ServerResponse } from 'node:http';
import { boardPageHeaders } from './web-layout.ts';

/** How often the script asks for changes (ms). */
export const LIVE_POLL_MS = 2000;

const CSS = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1b1b1b;background:#fff}
header{background:#f4f4f4;border-bottom:1px solid #bbb;padding:.5rem 1rem}
nav ul{list-style:none;display:flex;gap:1rem;margin:0;padding:0;flex-wrap:wrap}
nav a,.who a{color:#0b4fa8}.who{margin:.25rem 0 0;font-size:.9rem}
main{padding:0 1rem 2rem;max-width:80rem;margin:0 auto}h1{font-size:1.5rem}
a{color:#0b4fa8}label{display:block;margin:.5rem 0 .2rem;font-weight:600}
input,select,textarea{font:inherit;padding:.35rem;box-sizing:border-box;max-width:100%}
textarea{width:100%;min-height:6rem}button{font:inherit;padding:.4rem .9rem;margin:.5rem .5rem 0 0;cursor:pointer}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem}
.column{background:#f7f7f7;border:1px solid #ccc;padding:.5rem;border-radius:4px}
.column h2{font-size:1.1rem;margin:.25rem 0}.card{background:#fff;border:1px solid #bbb;padding:.5rem;margin:.5rem 0;border-radius:4px}
.card p{margin:.2rem 0}.muted{color:#444;font-size:.9rem}.filters{display:flex;gap:1rem;flex-wrap:wrap;align-items:end}
.filters label{margin:0}.error{border-left:4px solid #b00020;padding:.25rem .75rem;background:#fdecee}
.ok{border-left:4px solid #1b6e20;padding:.25rem .75rem;background:#e9f5ea}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #bbb;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#eee}.outcome-ok{color:#1b6e20}.outcome-fail{color:#b00020;font-weight:600}
fieldset{border:1px solid #bbb;margin:1rem 0;padding:.5rem 1rem}code{background:#f2f2f2;padding:0 .2rem}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem}
:focus-visible{outline:3px solid #1a73e8;outline-offset:2px}.sr-only{position:absolute;left:-999px}
svg text{font:12px system-ui,sans-serif}.charts{display:flex;flex-wrap:wrap;gap:1rem}`;

const JS = `(function () {
  var columns = document.getElementById('columns');
  if (!columns) return;
  var stamp = columns.getAttribute('data-stamp');
  var status = document.getElementById('live-status');
  function tick() {
    fetch('/board/changes', { credentials: 'same-origin', cache: 'no-store' })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (body) {
        if (!body || body.stamp === stamp) return null;
        return fetch(location.href, { credentials: 'same-origin', cache: 'no-store' })
          .then(function (r) { return r.text(); })
          .then(function (text) {
            var doc = new DOMParser().parseFromString(text, 'text/html');
            var fresh = doc.getElementById('columns');
            if (!fresh) return;
            if (columns.contains(document.activeElement)) return;
            columns.innerHTML = fresh.innerHTML;
            stamp = fresh.getAttribute('data-stamp');
            columns.setAttribute('data-stamp', stamp);
            if (status) status.textContent = 'The board was updated at ' + new Date().toLocaleTimeString() + '.';
          });
      })
      .catch(function () {})
      .then(function () { setTimeout(tick, ${LIVE_POLL_MS}); });
  }
  setTimeout(tick, ${LIVE_POLL_MS});
})();
`;

/** Serves `/board/assets/board.css` and `/board/assets/board.js`; true when `name` is one of them. */
export function sendAsset(res: ServerResponse, name: string): boolean {
  const body = name === 'board.css' ? CSS : name === 'board.js' ? JS : undefined;
  if (body === undefined) return false;
  res.writeHead(200, {
    ...boardPageHeaders(),
    'cache-control': 'no-cache',
    'content-type': name.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
  return true;
}
