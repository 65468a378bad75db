// Preloaded (`node --import`) into Portkey's gateway CLI by scripts/lib/peer-gateways.ts.
//
// Why: the CLI (@portkey-ai/gateway, build/start-server.js) has no host option — it calls
// serve({ fetch, port }), i.e. server.listen(port) on every interface — and with --port=0 it prints
// "http://localhost:0", its argument, never the port it bound. Tests must listen on 127.0.0.1 only and must
// know the port, so this binds the first listener to 127.0.0.1 and sends the real port to the parent over
// the IPC channel. It also makes the child stop when told (SIGTERM) or when the parent goes away (the IPC
// channel closes), so a test that dies leaves no gateway behind.
import net from 'node:net';

const listen = net.Server.prototype.listen;
let server;
net.Server.prototype.listen = function (...args) {
  // listen(port), listen(port, callback) or, as Portkey's server does, listen(port, undefined, callback): give it
  // the host; anything else is left as it is.
  if (!server && typeof args[0] === 'number' && (args[1] === undefined || typeof args[1] === 'function')) {
    if (args[1] === undefined) args[1] = '127.0.0.1';
    else args.splice(1, 0, '127.0.0.1');
    server = this;
    this.once('listening', () => process.send?.({ type: 'listening', port: this.address().port }));
  }
  return listen.apply(this, args);
};

let stopping = false;
function stop() {
  if (stopping) return; // a second signal while closing must not fall back to the default action
  stopping = true;
  if (!server) process.exit(0);
  server.closeAllConnections?.();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2000).unref(); // a connection that will not close does not keep it alive
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
