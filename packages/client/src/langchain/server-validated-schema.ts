/**
 * The schema a LangChain tool of this package carries: the server's input schema for the model, no checks on
 * this side. It is a Standard JSON Schema (`~standard.jsonSchema`), which LangChain turns into the tool's JSON
 * schema for `bindTools`, and its `~standard.validate` accepts every value; it has no JSON Schema keyword of its
 * own, so LangChain's JSON-schema validation passes every value too. The server validates the arguments and
 * its sentence reaches the model.
 *
 * @packageDocumentation
 */
import type { Tool as McpTool } from '@modelcontextprotocol/client';

/**
 * A Standard JSON Schema (v1) whose validation accepts every value. Its `description` (an annotation that
 * validates nothing) makes it a JSON schema to LangChain's types too.
 */
export interface ServerValidatedSchema {
  readonly description: string;
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => { readonly value: unknown };
    readonly jsonSchema: {
      readonly input: () => Record<string, unknown>;
      readonly output: () => Record<string, unknown>;
    };
  };
}

/** A schema that shows the model `inputSchema` and leaves validating the arguments to the server. */
export function serverValidatedSchema(
  inputSchema: McpTool['inputSchema'],
  description: string,
): ServerValidatedSchema {
  const jsonSchema = (): Record<string, unknown> => ({ ...inputSchema });
  return {
    description,
    '~standard': {
      version: 1,
      vendor: 'recourse',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: jsonSchema, output: jsonSchema },
    },
  };
}
