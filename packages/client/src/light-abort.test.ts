import { describe, expect, it } from 'vitest';
import { LightAbortController } from './light-abort.ts';

type Controller = { readonly signal: AbortSignal; abort(reason?: unknown): void };

/** Runs `script` on a controller and returns what it observed. */
type Script = (controller: Controller, seen: string[]) => void;

const scripts: Record<string, Script> = {
  'listeners run once, in order (onabort where it was set), with an abort event': (c, seen) => {
    c.signal.addEventListener('abort', (event) => seen.push(`a:${event.type}`));
    c.signal.onabort = (event) => void seen.push(`onabort:${event.type}`);
    c.signal.addEventListener('abort', { handleEvent: (event) => void seen.push(`b:${event.type}`) });
    c.abort('why');
    c.abort('again');
    seen.push(`aborted:${String(c.signal.aborted)} reason:${String(c.signal.reason)}`);
  },
  'onabort keeps the place where it was first set': (c, seen) => {
    c.signal.onabort = () => void seen.push('first handler');
    c.signal.addEventListener('abort', () => seen.push('listener'));
    c.signal.onabort = () => void seen.push('second handler');
    c.abort();
  },
  'onabort set to null does not run; set again, it keeps its first place': (c, seen) => {
    c.signal.onabort = () => void seen.push('removed handler');
    c.signal.addEventListener('abort', () => seen.push('listener'));
    c.signal.onabort = null;
    seen.push(`onabort:${String(c.signal.onabort)}`);
    c.signal.onabort = () => void seen.push('handler set again');
    c.abort();
  },
  'a listener added twice runs once; a removed one never': (c, seen) => {
    const twice = (): void => void seen.push('twice');
    const removed = (): void => void seen.push('removed');
    c.signal.addEventListener('abort', twice);
    c.signal.addEventListener('abort', twice);
    c.signal.addEventListener('abort', removed);
    c.signal.removeEventListener('abort', removed);
    c.abort();
  },
  'a listener added after the abort never runs; throwIfAborted throws the reason': (c, seen) => {
    c.abort(new Error('stop'));
    c.signal.addEventListener('abort', () => seen.push('late'));
    try {
      c.signal.throwIfAborted();
    } catch (error) {
      seen.push(`threw:${(error as Error).message}`);
    }
  },
  'no reason given: an AbortError': (c, seen) => {
    c.abort();
    const reason = c.signal.reason as DOMException;
    seen.push(`${reason.name}:${String(reason instanceof DOMException)}`);
  },
  "a listener removed by another's run does not run": (c, seen) => {
    const second = (): void => void seen.push('second');
    c.signal.addEventListener('abort', () => {
      seen.push('first');
      c.signal.removeEventListener('abort', second);
    });
    c.signal.addEventListener('abort', second);
    c.abort();
  },
  "an options signal's abort removes the listener": (c, seen) => {
    const removal = new AbortController();
    c.signal.addEventListener('abort', () => seen.push('kept'));
    c.signal.addEventListener('abort', () => seen.push('removed'), { signal: removal.signal });
    removal.abort();
    c.signal.addEventListener('abort', () => seen.push('never added'), { signal: removal.signal });
    c.abort();
  },
};

describe('LightAbortController', () => {
  it.each(Object.entries(scripts))('behaves as the native controller: %s', (_name, script) => {
    const native: string[] = [];
    const light: string[] = [];
    script(new AbortController(), native);
    script(new LightAbortController(), light);
    expect(light).toEqual(native);
    expect(light.length).toBeGreaterThan(0);
  });

  it('reports a throwing listener as an uncaught exception and still runs the others', async () => {
    const controller = new LightAbortController();
    const seen: string[] = [];
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => void uncaught.push(error);
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onUncaught);
    try {
      controller.signal.addEventListener('abort', () => {
        throw new Error('listener failed');
      });
      controller.signal.addEventListener('abort', () => seen.push('second'));
      controller.abort();
      expect(seen).toEqual(['second']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toMatchObject([{ message: 'listener failed' }]);
    } finally {
      process.off('uncaughtException', onUncaught);
      for (const listener of listeners) process.on('uncaughtException', listener);
    }
  });
});
