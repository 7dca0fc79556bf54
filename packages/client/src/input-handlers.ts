/**
 * The client's answers to a server's input requests (elicitation, sampling, roots): checked against the declared
 * capabilities once, installed on every SDK client a connection creates. The SDK uses them for a 2025-era
 * server→client request and to fulfil a 2026-07-28 `input_required` result before it repeats the request.
 *
 * @packageDocumentation
 */
import type {
  Client,
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
} from '@modelcontextprotocol/client';

/** What a handler of an input request gets besides the request. */
export interface InputRequestContext {
  /** Fires when the call that needs the input is cancelled or its deadline passes; stop asking then. */
  readonly signal: AbortSignal;
}

/** Answers to the server's input requests; each needs its capability declared in `capabilities`. */
export interface InputHandlers {
  /** Answers `elicitation/create` (needs `capabilities.elicitation`). Return `decline`/`cancel` rather than throw. */
  readonly onElicitation?: (
    request: ElicitRequest['params'],
    ctx: InputRequestContext,
  ) => Promise<ElicitResult>;
  /** Answers `sampling/createMessage` (needs `capabilities.sampling`). */
  readonly onSampling?: (
    request: CreateMessageRequest['params'],
    ctx: InputRequestContext,
  ) => Promise<CreateMessageResult>;
  /** Answers `roots/list` (needs `capabilities.roots`). */
  readonly onListRoots?: (ctx: InputRequestContext) => Promise<ListRootsResult>;
}

/** A client option that cannot work, found at construction. Code `INVALID_CLIENT_OPTIONS`. */
export class InvalidClientOptionsError extends Error {
  override readonly name = 'InvalidClientOptionsError';
  readonly code = 'INVALID_CLIENT_OPTIONS';
}

const PAIRS = [
  { capability: 'elicitation', handler: 'onElicitation', example: '{ form: {} }' },
  { capability: 'sampling', handler: 'onSampling', example: '{}' },
  { capability: 'roots', handler: 'onListRoots', example: '{}' },
] as const;

/**
 * Checks that every declared input capability has its handler and every handler its capability. Throws
 * {@link InvalidClientOptionsError} (`INVALID_CLIENT_OPTIONS`) naming the option to add or remove.
 */
export function checkInputOptions(capabilities: ClientCapabilities, handlers: InputHandlers): void {
  for (const { capability, handler, example } of PAIRS) {
    const declared = capabilities[capability] !== undefined;
    const given = handlers[handler] !== undefined;
    if (declared && !given) {
      throw new InvalidClientOptionsError(
        `The client options declare capabilities.${capability} but give no ${handler} handler, so the client could not answer the server's ${capability} requests. Pass ${handler}, or remove capabilities.${capability}. No client was created.`,
      );
    }
    if (given && !declared) {
      throw new InvalidClientOptionsError(
        `The client options give an ${handler} handler but do not declare capabilities.${capability}, so servers would never ask for it. Add capabilities: { ${capability}: ${example} }, or remove ${handler}. No client was created.`,
      );
    }
  }
}

/** Installs the given handlers on a new SDK client (before it connects). */
export function installInputHandlers(client: Client, handlers: InputHandlers): void {
  const { onElicitation, onSampling, onListRoots } = handlers;
  if (onElicitation) {
    client.setRequestHandler('elicitation/create', (request, ctx) =>
      onElicitation(request.params, { signal: ctx.mcpReq.signal }),
    );
  }
  if (onSampling) {
    client.setRequestHandler('sampling/createMessage', (request, ctx) =>
      onSampling(request.params, { signal: ctx.mcpReq.signal }),
    );
  }
  if (onListRoots) {
    client.setRequestHandler('roots/list', (_request, ctx) => onListRoots({ signal: ctx.mcpReq.signal }));
  }
}
