/**
 * The RFC 9728 protected-resource metadata document of the MCP endpoint, and where it is served.
 *
 * @packageDocumentation
 */

/** Where the metadata lives: the path-inserted form for `mcpPath` first, then the root form. */
export function metadataPaths(mcpPath: string): readonly [pathInserted: string, root: string] {
  const root = '/.well-known/oauth-protected-resource';
  return [mcpPath === '/' ? root : `${root}${mcpPath}`, root];
}

/** The RFC 9728 document this host serves. */
export interface ProtectedResourceMetadata {
  /** The MCP endpoint URL, the resource identifier tokens are meant for. */
  readonly resource: string;
  /**
   * OAuth authorization servers that issue tokens for this resource. Empty by default: tokens come
   * from the operator (the board CLI issues them), not from an OAuth server a client could talk to.
   */
  readonly authorization_servers: readonly string[];
  readonly bearer_methods_supported: readonly ['header'];
  readonly resource_name: string;
  /** The scopes a client may ask for, when the authorization server defines any. */
  readonly scopes_supported?: readonly string[];
}

/** Builds the metadata document for the endpoint at `resource`. */
export function buildMetadata(
  resource: string,
  authorizationServers: readonly string[],
  resourceName: string,
  scopesSupported?: readonly string[],
): ProtectedResourceMetadata {
  return {
    resource,
    authorization_servers: authorizationServers,
    bearer_methods_supported: ['header'],
    resource_name: resourceName,
    ...(scopesSupported === undefined ? {} : { scopes_supported: scopesSupported }),
  };
}
