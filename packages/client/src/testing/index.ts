/**
 * @recourse/client/testing: a fault-injection MCP server for testing MCP clients.
 *
 * @packageDocumentation
 */
export { startFaultServer } from './fault-server.ts';
export type { FaultServer, FaultServerOptions } from './fault-server.ts';
export { FaultScript, isHttpLevelFault } from './fault-script.ts';
export type { Fault, FaultKind } from './fault-script.ts';
export { createFaultMcpServer, createFaultState } from './fault-tools.ts';
export type { FaultCancellation, FaultExecution, FaultServerState } from './fault-tools.ts';
export { inMemoryFaultTarget } from './in-memory-target.ts';
export { startFlakyProxy } from './flaky-proxy.ts';
export type { FlakyProxy, FlakyProxyOptions, ProxiedRequest, ProxyAction } from './flaky-proxy.ts';
export { faultSchema, registerFaultControlTools } from './fault-control-tools.ts';
