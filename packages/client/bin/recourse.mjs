#!/usr/bin/env node
// recourse: registers tsx so that the TypeScript sources run as they are, then starts the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main();
