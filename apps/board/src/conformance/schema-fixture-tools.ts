/**
 * Conformance fixtures about tool schemas: a JSON Schema 2020-12 input schema that must reach clients
 * unchanged (SEP-1613, SEP-2106) and a tool whose parameter is mirrored into an `Mcp-Param-*` header (SEP-2243).
 *
 * @packageDocumentation
 */
import type { RawTool } from '@recourse/server';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** `json_schema_2020_12_tool`: `$schema`, `$defs.address` (the name the suites look for) with an `$anchor`, `allOf`/`anyOf`, `if`/`then`/`else`, closed. */
export function jsonSchemaFixtureTool(): RawTool {
  return {
    name: 'json_schema_2020_12_tool',
    description:
      'Conformance fixture: its input schema uses JSON Schema 2020-12 keywords that must survive listing.',
    inputSchema: {
      $schema: DRAFT_2020_12,
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
    handler: (args) => ({ content: [{ type: 'text', text: `Received ${JSON.stringify(args)}` }] }),
  };
}

/** `test_header_echo`: its `region` argument travels in the `Mcp-Param-Region` header too (2026-07-28). */
export function headerFixtureTool(): RawTool {
  return {
    name: 'test_header_echo',
    description:
      'Conformance fixture: echoes `region`, which clients also send as the Mcp-Param-Region header.',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', description: 'Region name', 'x-mcp-header': 'Region' } },
      required: ['region'],
    },
    handler: (args) => ({ content: [{ type: 'text', text: `Region: ${String(args['region'])}` }] }),
  };
}
