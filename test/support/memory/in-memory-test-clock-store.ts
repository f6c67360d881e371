import type { Clock } from '../../../domain/ports/clock.ts';
import type { TestClockStore } from '../../../domain/ports/test-clock-store.ts';
import type { TestClock } from '../../../domain/test-clocks/test-clock.ts';

/**
 * The groups' test clocks in memory, for rule tests in the unit tier; the port's contract
 * (test/support/contracts/test-clock-store-contract.ts) runs against it and DynamoTestClockStore:
 * one clock per group, replaced and removed only from its id and the version stored.
 */
export class InMemoryTestClockStore implements TestClockStore {
  private readonly clocks = new Map<string, TestClock>();

  async get(agentGroupId: string): Promise<TestClock | undefined> {
    return this.clocks.get(agentGroupId);
  }

  async list(): Promise<TestClock[]> {
    return [...this.clocks.values()];
  }

  async create(clock: TestClock): Promise<boolean> {
    if (this.clocks.has(clock.agentGroupId)) return false;
    this.clocks.set(clock.agentGroupId, clock);
    return true;
  }

  async replace(clock: TestClock, expectedVersion: number): Promise<boolean> {
    const stored = this.clocks.get(clock.agentGroupId);
    if (stored?.id !== clock.id || stored.version !== expectedVersion) return false;
    this.clocks.set(clock.agentGroupId, clock);
    return true;
  }

  async remove(agentGroupId: string, id: string, expectedVersion: number): Promise<boolean> {
    const stored = this.clocks.get(agentGroupId);
    if (stored?.id !== id || stored.version !== expectedVersion) return false;
    this.clocks.delete(agentGroupId);
    return true;
  }
}

/** The Clock port for rule tests: stands still until the test sets or advances it, so a verdict never depends on how busy the machine is. */
export class ManualClock implements Clock {
  private at: number;

  constructor(start: Date | string) {
    this.at = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.at);
  }

  set(to: Date | string): void {
    this.at = new Date(to).getTime();
  }

  advance(ms: number): void {
    this.at += ms;
  }
}
