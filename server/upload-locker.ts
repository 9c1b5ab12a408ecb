import { ERRORS, type Lock, type Locker, type RequestRelease } from "@tus/server";
import pg from "pg";
import { log } from "~/services/logger.server";
import { UPLOAD_LOCK_SPACE } from "~/services/uploads.server";

// tus's locks across processes (decision 024): one PostgreSQL advisory lock per upload, held by a
// connection of its own for as long as the lock lives, so every web process sharing the database
// sees it and a process that dies lets go at once (PostgreSQL ends its session). A request that
// finds the lock taken asks the holder to let go (tus ends the holder's PATCH gracefully, keeping
// what it received) through NOTIFY, and retries until it gets the lock or its time is up.

/** Where processes ask each other to let go of an upload. */
const RELEASE_CHANNEL = "heirloom_upload_release";

export type PgLockerOptions = {
  /** Give up (423, the client retries) after this long without the lock. */
  acquireTimeoutMs?: number;
  /** How long to wait between tries while another request holds the lock. */
  retryMs?: number;
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });

/**
 * A tus Locker over PostgreSQL advisory locks. `pool` lends the connections that hold the locks (one
 * per upload being written, so size it for the uploads one process takes at once); `close` stops
 * listening for release requests. Locks already held are released by their requests' own unlock.
 */
export class PgLocker implements Locker {
  readonly acquireTimeoutMs: number;
  readonly retryMs: number;
  /** Uploads locked by this process, with the holder's "please let go". */
  private readonly holders = new Map<string, RequestRelease>();
  private listener?: pg.Client;
  private listening?: Promise<void>;
  private closed = false;

  constructor(
    readonly pool: pg.Pool,
    options: PgLockerOptions = {},
  ) {
    this.acquireTimeoutMs = options.acquireTimeoutMs ?? 30_000;
    this.retryMs = options.retryMs ?? 100;
  }

  newLock(id: string): Lock {
    return new PgLock(this, id);
  }

  /** How many uploads this process holds locked right now. */
  get heldCount() {
    return this.holders.size;
  }

  /** Starts listening for other processes' release requests (done on first lock otherwise). */
  listen(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.listening ??= this.connectListener().catch((error: unknown) => {
      // Without the listener this process still locks correctly; holders just aren't asked to let go.
      log.error({ module: "uploads", err: error }, "upload lock listener could not connect");
      this.listening = undefined;
    });
    return this.listening;
  }

  private async connectListener() {
    const client = new pg.Client(this.pool.options);
    client.on("notification", (message) => {
      if (message.channel === RELEASE_CHANNEL && message.payload) void this.releaseLocal(message.payload);
    });
    client.on("error", (error) => {
      if (this.closed) return;
      log.warn({ module: "uploads", err: error }, "upload lock listener lost its connection; reconnecting");
      this.listener = undefined;
      this.listening = undefined;
      client.end().catch(() => {});
      setTimeout(() => void this.listen(), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${RELEASE_CHANNEL}`);
    if (this.closed) {
      await client.end();
      return;
    }
    this.listener = client;
  }

  async close() {
    this.closed = true;
    await this.listening;
    await this.listener?.end().catch(() => {});
    this.listener = undefined;
  }

  /** Asks whoever holds `id`, in this process or another, to let go. */
  async requestRelease(id: string, via: pg.PoolClient) {
    if (this.holders.has(id)) return this.releaseLocal(id);
    await via.query("SELECT pg_notify($1, $2)", [RELEASE_CHANNEL, id]);
  }

  private async releaseLocal(id: string) {
    try {
      await this.holders.get(id)?.();
    } catch (error) {
      log.warn({ module: "uploads", err: error }, "upload lock holder failed to let go");
    }
  }

  /** @internal */
  hold(id: string, requestRelease: RequestRelease) {
    this.holders.set(id, requestRelease);
  }

  /** @internal */
  drop(id: string, requestRelease: RequestRelease) {
    if (this.holders.get(id) === requestRelease) this.holders.delete(id);
  }
}

class PgLock implements Lock {
  private client?: pg.PoolClient;
  private requestRelease?: RequestRelease;
  private onConnectionError?: (error: Error) => void;

  constructor(
    private readonly locker: PgLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    void this.locker.listen();
    const deadline = Date.now() + this.locker.acquireTimeoutMs;
    const client = await this.locker.pool.connect();
    let askedAt = 0;
    try {
      for (let attempt = 0; ; attempt++) {
        if (signal.aborted) throw ERRORS.ERR_LOCK_TIMEOUT;
        const { rows } = await client.query<{ locked: boolean }>(
          "SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked",
          [UPLOAD_LOCK_SPACE, this.id],
        );
        if (rows[0].locked) break;
        // Ask again now and then: the holder may have been between requests the first time.
        if (Date.now() - askedAt >= 1000) {
          askedAt = Date.now();
          await this.locker.requestRelease(this.id, client);
        }
        const left = deadline - Date.now();
        if (left <= 0) throw ERRORS.ERR_LOCK_TIMEOUT;
        await sleep(Math.min(left, this.locker.retryMs * Math.min(2 ** Math.floor(attempt / 5), 5)), signal);
      }
    } catch (error) {
      client.release();
      throw error;
    }
    this.client = client;
    this.requestRelease = requestRelease;
    this.locker.hold(this.id, requestRelease);
    // The lock lives as long as this connection: if it drops, the lock is gone, so the request
    // holding it must stop writing.
    this.onConnectionError = (error) => {
      log.warn({ module: "uploads", err: error }, "lost the connection holding an upload lock");
      void requestRelease();
    };
    client.once("error", this.onConnectionError);
  }

  async unlock(): Promise<void> {
    const client = this.client;
    if (!client || !this.requestRelease) throw new Error("Releasing an unlocked lock!");
    this.client = undefined;
    this.locker.drop(this.id, this.requestRelease);
    if (this.onConnectionError) client.removeListener("error", this.onConnectionError);
    try {
      await client.query("SELECT pg_advisory_unlock($1, hashtext($2))", [UPLOAD_LOCK_SPACE, this.id]);
      client.release();
    } catch (error) {
      // Destroying the connection ends its session, which releases the lock all the same.
      client.release(error instanceof Error ? error : true);
    }
  }
}
