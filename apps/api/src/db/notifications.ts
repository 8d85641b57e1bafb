import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * `payload` is null when the connection was lost and has just been re-established: notifications sent in
 * between are gone, so a listener should re-read whatever it follows.
 */
export type Listener = (payload: string | null) => void;

/**
 * One LISTEN connection per process, fanned out in memory. NOTIFY is sent inside the transaction of the
 * change and PostgreSQL delivers it at commit to every process, so live updates work across API processes.
 */
export interface Notifications {
  subscribe(channel: string, listener: Listener): Promise<() => void>;
  close(): Promise<void>;
}

function fanOut() {
  const listeners = new Map<string, Set<Listener>>();
  return {
    add(channel: string, listener: Listener): boolean {
      let set = listeners.get(channel);
      const isNew = !set;
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(listener);
      return isNew;
    },
    remove(channel: string, listener: Listener): boolean {
      const set = listeners.get(channel);
      set?.delete(listener);
      if (set && set.size === 0) {
        listeners.delete(channel);
        return true;
      }
      return false;
    },
    emit(channel: string, payload: string | null) {
      for (const listener of listeners.get(channel) ?? []) {
        try {
          listener(payload);
        } catch {
          // One broken subscriber must not stop the others.
        }
      }
    },
    channels: () => [...listeners.keys()],
  };
}

const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`;

export function pgliteNotifications(client: PGlite): Notifications {
  const fan = fanOut();
  const unlisten = new Map<string, () => Promise<void>>();
  return {
    async subscribe(channel, listener) {
      if (fan.add(channel, listener)) {
        unlisten.set(channel, await client.listen(channel, (payload) => fan.emit(channel, payload)));
      }
      return () => {
        if (fan.remove(channel, listener)) {
          const stop = unlisten.get(channel);
          unlisten.delete(channel);
          void stop?.().catch(() => {});
        }
      };
    },
    async close() {
      for (const stop of unlisten.values()) await stop().catch(() => {});
      unlisten.clear();
    },
  };
}

/** A dedicated client that re-connects and re-listens when the server goes away and comes back. */
export function postgresNotifications(url: string): Notifications {
  const fan = fanOut();
  let client: pg.Client | undefined;
  let connecting: Promise<pg.Client> | undefined;
  let closed = false;

  // Tried again every second until it works: a server that is down longer than one retry must not end live
  // updates for the life of the process.
  let retry: NodeJS.Timeout | undefined;
  const reconnectLater = (): void => {
    if (closed || retry || fan.channels().length === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect().catch(reconnectLater);
    }, 1000);
    retry.unref();
  };

  let hasLostConnection = false;
  const connect = (): Promise<pg.Client> => {
    if (client) return Promise.resolve(client);
    connecting ??= (async () => {
      const next = new pg.Client({ connectionString: url });
      next.on('notification', (message) => fan.emit(message.channel, message.payload ?? ''));
      next.on('error', () => {
        if (client === next) hasLostConnection = true;
        client = undefined;
        connecting = undefined;
        next.end().catch(() => {});
        reconnectLater();
      });
      await next.connect();
      for (const channel of fan.channels()) await next.query(`LISTEN ${quote(channel)}`);
      client = next;
      if (hasLostConnection) {
        hasLostConnection = false;
        for (const channel of fan.channels()) fan.emit(channel, null);
      }
      return next;
    })().finally(() => {
      connecting = undefined;
    });
    return connecting;
  };

  return {
    async subscribe(channel, listener) {
      const isNew = fan.add(channel, listener);
      if (isNew) {
        try {
          const connection = await connect();
          await connection.query(`LISTEN ${quote(channel)}`);
        } catch {
          // The server is away (or went away mid-LISTEN). The subscription stands: reconnects are scheduled,
          // every channel is listened to again on the new connection, and subscribers are told to re-read
          // (null) once it is up, exactly as after a lost connection. Failing here would end live updates
          // for this subscriber with nothing left to retry.
          hasLostConnection = true;
          const broken = client;
          client = undefined;
          void broken?.end().catch(() => {});
          reconnectLater();
        }
      }
      return () => {
        if (fan.remove(channel, listener) && client)
          void client.query(`UNLISTEN ${quote(channel)}`).catch(() => {});
      };
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
