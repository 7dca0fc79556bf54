#!/usr/bin/env node
// recourse-fault-server: runs the compiled fault-injection server (`npm run build` writes dist/). It needs the
// optional peer dependency @modelcontextprotocol/server.
import { main } from '../dist/testing/fault-server-main.js';

const code = await main();
if (code !== 0) process.exitCode = code;
