/**
 * Every adapter group at once: for the processes that run the use cases of every area (the admin
 * tool, the local scripts, the benchmarks, the tests' direct reads of the table). A function's
 * bundle never imports this module; its entry wires its own groups (infra/compose/core.ts, wire).
 */
import type { Clock } from '../../domain/ports/clock.ts';
import type { Config } from '../config.ts';
import { billingAdapters } from './adapters/billing.ts';
import { bookingAdapters } from './adapters/bookings.ts';
import { channexAdapters } from './adapters/channel-manager.ts';
import { consoleAdapters } from './adapters/console.ts';
import { composeServices, services as processServices, systemClock, wire, type AnyAdapterGroup, type Services } from './core.ts';
import { mailAdapters } from './adapters/mail.ts';
import { paymentAdapters } from './adapters/payments.ts';
import { searchAdapters } from './adapters/search.ts';

export const ALL_ADAPTERS: readonly AnyAdapterGroup[] = [
  bookingAdapters,
  billingAdapters,
  paymentAdapters,
  mailAdapters,
  consoleAdapters,
  channexAdapters,
  searchAdapters,
];

/** Every adapter of one process, each built at its first read. */
export function buildServices(cfg: Config, clock: Clock = systemClock): Services {
  return composeServices(cfg, clock, ALL_ADAPTERS);
}

/**
 * This process's services() with every group wired: for a process that calls handlers in-process
 * (the benches, a test that invokes a handler module rather than its function's entry), which
 * would otherwise get only the core, since no entry of theirs ran wire().
 */
export function servicesOfEveryArea(): Services {
  wire(...ALL_ADAPTERS);
  return processServices();
}
