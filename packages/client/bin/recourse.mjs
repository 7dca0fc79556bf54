#!/usr/bin/env node
// recourse: runs the compiled CLI (`npm run build` writes dist/).
import { main } from '../dist/cli/main.js';

await main();
