/**
 * The listed tool definitions the client hands to the SDK's `callTool` on connections whose transport carries no
 * HTTP headers (stdio).
 *
 * Without a definition, the SDK's `callTool` on a client that has listed the tools looks the tool up in its
 * response cache twice per call (asynchronously) and scans its input schema for `x-mcp-header` declarations, on
 * stdio too; given one (`toolDefinition`), it validates the result against the definition's `outputSchema` just
 * as it does from its cache, with neither look-up. The scan only serves header mirroring, which has no headers to
 * mirror into off HTTP, so the definition handed over carries an empty input schema. On HTTP the SDK's own path
 * stays: it lists the tools again after a header mismatch, which it does not do for a definition it was given.
 *
 * @packageDocumentation
 */
import type { Client, Tool } from '@modelcontextprotocol/client';

/** The input schema of a handed-over definition: nothing in it for the header scan to walk. */
const NO_INPUT_SCHEMA: Tool['inputSchema'] = Object.freeze({ type: 'object' });

/** The listed definitions per SDK client, kept only for the clients {@link ToolDefinitions.track} was given. */
export class ToolDefinitions {
  readonly #byClient = new WeakMap<Client, ReadonlyMap<string, Tool>>();
  /** Per tracked client, the number of `notifications/tools/list_changed` seen (a listing older than one is not kept). */
  readonly #changes = new WeakMap<Client, number>();

  /**
   * Keeps the definitions `client` lists from now on; a `notifications/tools/list_changed` drops them (the SDK
   * drops its cached listing then too), until the tools are listed again.
   */
  track(client: Client): void {
    this.#changes.set(client, 0);
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
      this.#byClient.set(
        client,
        new Map(tools.map((tool) => [tool.name, { ...tool, inputSchema: NO_INPUT_SCHEMA }])),
      );
    }
    return tools;
  }

  /** The definition of `tool` to hand to `client.callTool`, when `client` is tracked and has listed it. */
  of(client: Client, tool: string): Tool | undefined {
    return this.#byClient.get(client)?.get(tool);
  }
}
