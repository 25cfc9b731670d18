// `node --import ./module-probe.mjs server.js`: appends the URL of every ES module the process
// resolves to the file named by VITRINA_MODULE_PROBE (tests that check what a server loads).
import { register } from 'node:module';

register('./module-probe-hooks.mjs', import.meta.url);
