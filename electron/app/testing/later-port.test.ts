import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { portForLaterListen } from './later-port';

const RANGE = '/proc/sys/net/ipv4/ip_local_port_range';

describe('a port for a server that listens later', () => {
  it.runIf(process.platform === 'linux')(
    'lies outside the range the kernel hands to listen(0) and to outgoing connections, and can be listened on',
    async () => {
      const [low, high] = readFileSync(RANGE, 'utf8').trim().split(/\s+/).map(Number) as [number, number];
      const ports = await Promise.all(Array.from({ length: 20 }, () => portForLaterListen()));
      for (const port of ports) expect(port < low || port > high, `port ${port} in ${low}–${high}`).toBe(true);

      const server = createServer();
      await new Promise<void>((resolve) => server.listen(ports[0], '127.0.0.1', resolve));
      expect((server.address() as AddressInfo).port).toBe(ports[0]);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  );
});
