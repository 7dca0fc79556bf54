#!/usr/bin/env node
// recourse-fault-server: registers tsx so that the TypeScript sources run as they are, then starts the server.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/testing/fault-server-main.ts');
const code = await main();
if (code !== 0) process.exitCode = code;
