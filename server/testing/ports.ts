import { connect } from 'node:net';

/** Whether something listens on this loopback port (a server, an embedded PostgreSQL) right now. */
export const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
