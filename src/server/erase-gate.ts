/**
 * Keeps downloads and erasure of one account apart. The engine erases a
 * job's files and results one key at a time and records `expiredDate` once
 * all are gone, so a download that read the job just before could find its
 * result half erased and fail with an internal error. Here a download
 * (`/exports/…`, `/files/…`) holds the account's gate shared, and an erase
 * (`DELETE`, the retention sweep) holds it alone: a download runs wholly
 * before an erase, and gets the file, or wholly after, and gets 409
 * `OMR_JOB_EXPIRED`. A waiting erase lets no new download in ahead of it,
 * so a stream of downloads cannot hold it off.
 */

export class EraseGate {
  private readonly accounts = new Map<string, AccountGate>();

  /** Runs a download of `account` alongside other downloads, never during an erase. */
  download<T>(account: string, run: () => Promise<T>): Promise<T> {
    return this.gate(account).shared(run);
  }

  /** Runs an erase of `account` alone. */
  erase<T>(account: string, run: () => Promise<T>): Promise<T> {
    return this.gate(account).exclusive(run);
  }

  private gate(account: string): AccountGate {
    let gate = this.accounts.get(account);
    if (!gate) this.accounts.set(account, (gate = new AccountGate()));
    return gate;
  }
}

/** A readers–writer lock that lets a waiting writer go before readers that come after it. */
class AccountGate {
  private readers = 0;
  private writing = false;
  private readonly queue: { exclusive: boolean; go: () => void }[] = [];

  async shared<T>(run: () => Promise<T>): Promise<T> {
    if (this.writing || this.queue.length) await this.wait(false);
    else this.readers++;
    try {
      return await run();
    } finally {
      this.readers--;
      this.next();
    }
  }

  async exclusive<T>(run: () => Promise<T>): Promise<T> {
    if (this.writing || this.readers || this.queue.length) await this.wait(true);
    else this.writing = true;
    try {
      return await run();
    } finally {
      this.writing = false;
      this.next();
    }
  }

  /** Queues a turn; `next` counts the caller in before waking it. */
  private wait(exclusive: boolean): Promise<void> {
    return new Promise((go) => this.queue.push({ exclusive, go }));
  }

  private next(): void {
    if (this.writing) return;
    while (this.queue.length) {
      const head = this.queue[0]!;
      if (head.exclusive) {
        if (this.readers) return;
        this.queue.shift();
        this.writing = true;
        head.go();
        return;
      }
      this.queue.shift();
      this.readers++;
      head.go();
    }
  }
}
