/**
 * The validating proxy (`gateway-conformance proxy`) in a process of its own in front of a reference server:
 * `proxy-entry.ts --upstream http://127.0.0.1:40123`. Prints `bench-ready {"port": …}` when it listens.
 */
import { parseArgs } from 'node:util';
import { startProxy } from '../../src/conformance/proxy/proxy.ts';

const { values } = parseArgs({ options: { upstream: { type: 'string' } } });
if (!values.upstream) throw new Error('--upstream is required');
const proxy = await startProxy({ upstream: values.upstream, port: 0 });
console.log(`bench-ready ${JSON.stringify({ port: Number(new URL(proxy.baseUrl).port) })}`);
const stop = () => void proxy.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
