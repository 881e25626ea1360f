/**
 * `scoresight serve` from the TypeScript source, as its own process: run as
 * `node --import ./bench/node/register.mjs test/support/serve-child.mjs serve …`
 * where a test needs the real server to be killed, signalled and restarted.
 * It is what bin/scoresight.js runs, without needing a build first.
 */
import { main } from '../../src/cli/main.ts';

process.exitCode = await main(process.argv.slice(2));
