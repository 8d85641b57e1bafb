/**
 * Runs at most `slots` tasks at once and hands a freed slot round-robin: first across groups (companies),
 * then across the callers of a group (an intake session, a receipt session, an account). A group may hold at
 * most `groupCap` slots and a caller `callerCap`, so with two slots or more one company's uploads never hold
 * every worker, and one caller cannot take the turn of another caller of its company. A task that has not
 * started within its wait deadline is dropped and rejected with `QueueWaitExpired`.
 */

export interface FairKey {
  group: string;
  caller: string;
}

export class QueueWaitExpired extends Error {
  constructor() {
    super('waited past the deadline for a free slot');
    this.name = 'QueueWaitExpired';
  }
}

interface Waiting {
  start: () => void;
  timer?: NodeJS.Timeout;
}

interface CallerQueue {
  id: string;
  jobs: Waiting[];
}

interface Group {
  id: string;
  /** Callers with jobs waiting, in turn order. */
  callers: CallerQueue[];
}

export class FairQueue {
  private slots: number;
  private readonly running = new Map<string, number>();
  private runningTotal = 0;
  /** Groups with jobs waiting, in turn order. */
  private readonly groups: Group[] = [];

  constructor(slots: number) {
    this.slots = Math.max(1, slots);
  }

  get size(): number {
    return this.slots;
  }

  resize(slots: number): void {
    this.slots = Math.max(1, slots);
    this.dispatch();
  }

  /** One slot is always left for the other groups (callers), once there are two (four) or more. */
  get groupCap(): number {
    return Math.max(1, this.slots - 1);
  }

  get callerCap(): number {
    return Math.max(1, Math.floor(this.slots / 2));
  }

  /** Tasks running or waiting. */
  get pending(): number {
    let waiting = 0;
    for (const group of this.groups) for (const caller of group.callers) waiting += caller.jobs.length;
    return this.runningTotal + waiting;
  }

  run<T>(key: FairKey, task: () => Promise<T>, { waitMs }: { waitMs: number }): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const callerId = `${key.group}\u0000${key.caller}`;
      const job: Waiting = {
        start: () => {
          clearTimeout(job.timer);
          this.take(key.group, callerId);
          task()
            .then(resolve, reject)
            .finally(() => {
              this.release(key.group, callerId);
              this.dispatch();
            });
        },
      };
      let group = this.groups.find((candidate) => candidate.id === key.group);
      if (!group) {
        group = { id: key.group, callers: [] };
        this.groups.push(group);
      }
      let caller = group.callers.find((candidate) => candidate.id === callerId);
      if (!caller) {
        caller = { id: callerId, jobs: [] };
        group.callers.push(caller);
      }
      caller.jobs.push(job);
      this.dispatch();
      if (!caller.jobs.includes(job)) return;
      job.timer = setTimeout(() => {
        if (this.remove(key.group, callerId, job)) reject(new QueueWaitExpired());
      }, waitMs);
      job.timer.unref();
    });
  }

  private count(id: string): number {
    return this.running.get(id) ?? 0;
  }

  private take(groupId: string, callerId: string): void {
    this.runningTotal += 1;
    this.running.set(`g:${groupId}`, this.count(`g:${groupId}`) + 1);
    this.running.set(`c:${callerId}`, this.count(`c:${callerId}`) + 1);
  }

  private release(groupId: string, callerId: string): void {
    this.runningTotal -= 1;
    for (const id of [`g:${groupId}`, `c:${callerId}`]) {
      const left = this.count(id) - 1;
      if (left > 0) this.running.set(id, left);
      else this.running.delete(id);
    }
  }

  private remove(groupId: string, callerId: string, job: Waiting): boolean {
    const group = this.groups.find((candidate) => candidate.id === groupId);
    const caller = group?.callers.find((candidate) => candidate.id === callerId);
    const at = caller?.jobs.indexOf(job) ?? -1;
    if (!group || !caller || at < 0) return false;
    caller.jobs.splice(at, 1);
    if (caller.jobs.length === 0) group.callers.splice(group.callers.indexOf(caller), 1);
    if (group.callers.length === 0) this.groups.splice(this.groups.indexOf(group), 1);
    return true;
  }

  /** Starts waiting jobs while a slot is free: the first group in turn with a caller in turn under its caps. */
  private dispatch(): void {
    while (this.runningTotal < this.slots) {
      const next = this.nextInTurn();
      if (!next) return;
      const { group, caller } = next;
      const job = caller.jobs.shift();
      if (!job) return;
      // Served: both go to the back of their line (or leave it when nothing of theirs waits).
      group.callers.splice(group.callers.indexOf(caller), 1);
      if (caller.jobs.length > 0) group.callers.push(caller);
      this.groups.splice(this.groups.indexOf(group), 1);
      if (group.callers.length > 0) this.groups.push(group);
      job.start();
    }
  }

  private nextInTurn(): { group: Group; caller: CallerQueue } | undefined {
    for (const group of this.groups) {
      if (this.count(`g:${group.id}`) >= this.groupCap) continue;
      const caller = group.callers.find((candidate) => this.count(`c:${candidate.id}`) < this.callerCap);
      if (caller) return { group, caller };
    }
    return undefined;
  }
}
