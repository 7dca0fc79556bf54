/**
 * The tasks extension's identifier. Kept apart from the wire shapes so that the package's public declarations do
 * not import `@modelcontextprotocol/ext-tasks` types (whose declarations fail a consumer's `skipLibCheck: false`
 * type check).
 *
 * @packageDocumentation
 */

/** The extension's identifier, as declared in capabilities. */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';
