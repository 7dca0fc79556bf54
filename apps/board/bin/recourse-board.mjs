#!/usr/bin/env node
// recourse-board: runs the compiled CLI (`npm run build` writes dist/).
import { main } from '../dist/cli/main.js';

await main();
