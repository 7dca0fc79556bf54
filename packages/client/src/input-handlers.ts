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

/** Code of {@link InputHandlerError}. */
export const INPUT_HANDLER_FAILED = 'INPUT_HANDLER_FAILED';

/**
 * An input handler threw (not because its signal fired). On 2026-07-28 the call then fails with
 * `CALL_INPUT_FAILED`; on 2025 the SDK sends this message to the server as a JSON-RPC error. Code
 * `INPUT_HANDLER_FAILED`.
 */
export class InputHandlerError extends Error {
  override readonly name = 'InputHandlerError';
  readonly code = INPUT_HANDLER_FAILED;

  constructor(handler: string, method: string, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(`its ${handler} handler threw while answering the server's ${method} request (${why})`, { cause });
  }
}

/** Runs a user's handler; a failure not caused by its signal becomes an {@link InputHandlerError}. */
async function guarded<T>(
  handler: string,
  method: string,
  signal: AbortSignal,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (signal.aborted) throw error;
    throw new InputHandlerError(handler, method, error);
  }
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

/**
 * Installs the given handlers on a new SDK client (before it connects). A handler that throws for another reason
 * than its signal firing is reported as an {@link InputHandlerError} (`INPUT_HANDLER_FAILED`).
 */
export function installInputHandlers(client: Client, handlers: InputHandlers): void {
  const { onElicitation, onSampling, onListRoots } = handlers;
  if (onElicitation) {
    client.setRequestHandler('elicitation/create', (request, ctx) => {
      const { signal } = ctx.mcpReq;
      return guarded('onElicitation', request.method, signal, () =>
        onElicitation(request.params, { signal }),
      );
    });
  }
  if (onSampling) {
    client.setRequestHandler('sampling/createMessage', (request, ctx) => {
      const { signal } = ctx.mcpReq;
      return guarded('onSampling', request.method, signal, () => onSampling(request.params, { signal }));
    });
  }
  if (onListRoots) {
    client.setRequestHandler('roots/list', (request, ctx) => {
      const { signal } = ctx.mcpReq;
      return guarded('onListRoots', request.method, signal, () => onListRoots({ signal }));
    });
  }
}
