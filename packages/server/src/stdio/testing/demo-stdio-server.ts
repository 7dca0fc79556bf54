/**
 * A stdio server over the demo factory, spawned by the stdio host tests with `node --import tsx`.
 * The member comes from `DEMO_MEMBER` (default `m_stdio`). Not part of the public API.
 *
 * @packageDocumentation
 */
import { startStdioHost } from '../stdio-host.ts';
import { createDemoFactory, createDemoState } from '../../http/testing/demo-server.ts';

const host = await startStdioHost({
  factory: createDemoFactory(createDemoState()),
  principal: {
    id: process.env.DEMO_MEMBER ?? 'm_stdio',
    name: 'Stdio Tester',
    role: 'contributor',
  },
});
await host.closed;
