/**
 * A {@link ServerTarget} that talks to the fault tools in-process (SDK `InMemoryTransport`), for tests
 * that fake timers and so cannot use sockets.
 *
 * @packageDocumentation
 */
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { ServerTarget } from '../connection.ts';
import { createFaultMcpServer } from './fault-tools.ts';
import type { FaultServerState } from './fault-tools.ts';

/** A target whose every connection gets a fresh fault server bound to `state`. */
export function inMemoryFaultTarget(state: FaultServerState): ServerTarget {
  return {
    transport: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      void createFaultMcpServer(state).connect(serverSide);
      return clientSide;
    },
  };
}
