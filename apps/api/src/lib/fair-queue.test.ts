import { describe, expect, it } from 'vitest';
import { FairQueue, QueueWaitExpired } from './fair-queue.ts';
import { metadataPoolSize } from './remove-metadata.ts';

/** A task the test finishes by hand, recording when it started. */
function controlled(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    finish: () => finish(),
    task: async () => {
      started.push(name);
      await done;
      return name;
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('FairQueue serves callers in turn', () => {
  it('starts the second caller before the third job of the first caller (one slot)', async () => {
    const queue = new FairQueue(1);
    const started: string[] = [];
    const jobs = ['a1', 'a2', 'a3'].map((name) => controlled(started, name));
    const b1 = controlled(started, 'b1');
    const runs = jobs.map((job) =>
      queue.run({ group: 'c1', caller: 'intake:a' }, job.task, { waitMs: 60_000 }),
    );
    runs.push(queue.run({ group: 'c1', caller: 'user:b' }, b1.task, { waitMs: 60_000 }));
    for (const job of [...jobs, b1]) {
      await flush();
      job.finish();
    }
    await Promise.all(runs);
    expect(started.indexOf('b1')).toBeLessThan(started.indexOf('a3'));
    expect(started).toEqual(['a1', 'a2', 'b1', 'a3']);
  });

  it("keeps a slot for another company while one company's caller holds the rest (two slots)", async () => {
    const queue = new FairQueue(2);
    const started: string[] = [];
    const attacker = ['a1', 'a2', 'a3'].map((name) => controlled(started, name));
    const member = controlled(started, 'm1');
    const runs = attacker.map((job) =>
      queue.run({ group: 'attacked', caller: 'intake:a' }, job.task, { waitMs: 60_000 }),
    );
    await flush();
    // One package of the attacker runs, the other two wait: the second worker is not theirs to take.
    expect(started).toEqual(['a1']);
    runs.push(queue.run({ group: 'other', caller: 'user:m' }, member.task, { waitMs: 60_000 }));
    await flush();
    expect(started).toEqual(['a1', 'm1']);
    member.finish();
    for (const job of attacker) {
      await flush();
      job.finish();
    }
    await Promise.all(runs);
    expect(started).toEqual(['a1', 'm1', 'a2', 'a3']);
  });

  it('rejects a job still waiting at its deadline, and runs the rest', async () => {
    const queue = new FairQueue(1);
    const started: string[] = [];
    const held = controlled(started, 'held');
    const first = queue.run({ group: 'c', caller: 'a' }, held.task, { waitMs: 60_000 });
    const late = queue.run({ group: 'c', caller: 'b' }, async () => 'late', { waitMs: 5 });
    await expect(late).rejects.toBeInstanceOf(QueueWaitExpired);
    expect(queue.pending).toBe(1);
    held.finish();
    await expect(first).resolves.toBe('held');
    await expect(queue.run({ group: 'c', caller: 'b' }, async () => 'next', { waitMs: 5 })).resolves.toBe(
      'next',
    );
    expect(queue.pending).toBe(0);
  });

  it('frees the slot of a failed task', async () => {
    const queue = new FairQueue(1);
    await expect(
      queue.run({ group: 'c', caller: 'a' }, () => Promise.reject(new Error('boom')), { waitMs: 100 }),
    ).rejects.toThrow('boom');
    await expect(queue.run({ group: 'c', caller: 'a' }, async () => 1, { waitMs: 100 })).resolves.toBe(1);
  });
});

describe('metadataPoolSize', () => {
  const GB = 1024 ** 3;
  it('takes a core each but one, as memory allows, never under the minimum', () => {
    expect(metadataPoolSize(2, { cores: 2, memoryBytes: 8 * GB })).toBe(2);
    expect(metadataPoolSize(1, { cores: 2, memoryBytes: 8 * GB })).toBe(1);
    expect(metadataPoolSize(2, { cores: 16, memoryBytes: 64 * GB })).toBe(15);
    expect(metadataPoolSize(2, { cores: 16, memoryBytes: 8 * GB })).toBe(4);
    expect(metadataPoolSize(3, { cores: 1, memoryBytes: 1 * GB })).toBe(3);
  });
});
