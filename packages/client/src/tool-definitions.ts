/**
 * The listed tool definitions the client hands to the SDK's `callTool`.
 *
 * Without a definition, the SDK's `callTool` on a client that has listed the tools looks the tool up in its
 * response cache twice per call (asynchronously) and scans its input schema for `x-mcp-header` declarations;
 * given one (`toolDefinition`), it validates the result against the definition's `outputSchema` just as it does
 * from its cache, with neither look-up. The scan only serves header mirroring (`Mcp-Param-*` headers on HTTP),
 * so the definition handed over carries an empty input schema, and on HTTP only tools that declare no header
 * are handed over: for the others the SDK's own path mirrors their headers. A definition handed over is not
 * listed again after a header mismatch, as the SDK's own path is; the attempt then drops the kept definitions
 * ({@link ToolDefinitions.forget}) and sends the call once more without one.
 *
 * @packageDocumentation
 */
import type { Client, Tool } from '@modelcontextprotocol/client';

/** The input schema of a handed-over definition: nothing in it for the header scan to walk. */
const NO_INPUT_SCHEMA: Tool['inputSchema'] = Object.freeze({ type: 'object' });

/** Whether a tool's input schema declares an `x-mcp-header` anywhere (a property of that name counts too). */
function declaresHeaders(tool: Tool): boolean {
  return JSON.stringify(tool.inputSchema).includes('"x-mcp-header"');
}

/** The listed definitions per SDK client, kept only for the clients {@link ToolDefinitions.track} was given. */
export class ToolDefinitions {
  readonly #byClient = new WeakMap<Client, ReadonlyMap<string, Tool>>();
  /** The tracked clients whose requests carry HTTP headers (header mirroring applies). */
  readonly #mirroring = new WeakSet<Client>();
  /** Per tracked client, the number of `notifications/tools/list_changed` seen (a listing older than one is not kept). */
  readonly #changes = new WeakMap<Client, number>();

  /**
   * Keeps the definitions `client` lists from now on; a `notifications/tools/list_changed` drops them (the SDK
   * drops its cached listing then too), until the tools are listed again. `mirrorsHeaders`: the client's
   * requests are HTTP requests, so tools that declare `x-mcp-header` are left to the SDK's own path.
   */
  track(client: Client, mirrorsHeaders: boolean): void {
    this.#changes.set(client, 0);
    if (mirrorsHeaders) this.#mirroring.add(client);
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      this.#changes.set(client, (this.#changes.get(client) ?? 0) + 1);
      this.#byClient.delete(client);
    });
  }

  /** Lists the tools on `client` (all pages), keeping their definitions when `client` is tracked. */
  async list(client: Client, signal?: AbortSignal): Promise<readonly Tool[]> {
    const changes = this.#changes.get(client);
    const { tools } = await client.listTools(undefined, signal === undefined ? undefined : { signal });
    if (changes !== undefined && this.#changes.get(client) === changes) {
      const mirroring = this.#mirroring.has(client);
      const kept = new Map<string, Tool>();
      for (const tool of tools) {
        if (!(mirroring && declaresHeaders(tool)))
          kept.set(tool.name, { ...tool, inputSchema: NO_INPUT_SCHEMA });
      }
      this.#byClient.set(client, kept);
    }
    return tools;
  }

  /** Whether `client` was tracked as one whose requests carry HTTP headers. */
  mirrorsHeaders(client: Client): boolean {
    return this.#mirroring.has(client);
  }

  /** Drops the definitions kept for `client` until it lists the tools again. */
  forget(client: Client): void {
    this.#byClient.delete(client);
  }

  /** The definition of `tool` to hand to `client.callTool`, when `client` is tracked and has listed it. */
  of(client: Client, tool: string): Tool | undefined {
    return this.#byClient.get(client)?.get(tool);
  }
}
