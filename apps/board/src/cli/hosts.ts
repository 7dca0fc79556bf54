/**
 * The kit's hosts as the CLI uses them.
 *
 * @packageDocumentation
 */
export { startHttpHost } from '../../../../packages/server/src/http/http-host.ts';
export { startStdioHost } from '../../../../packages/server/src/stdio/stdio-host.ts';
