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
import { composeServices, systemClock, type AnyAdapterGroup, type Services } from './core.ts';
import { mailAdapters } from './adapters/mail.ts';
import { paymentAdapters } from './adapters/payments.ts';

export const ALL_ADAPTERS: readonly AnyAdapterGroup[] = [bookingAdapters, billingAdapters, paymentAdapters, mailAdapters, consoleAdapters, channexAdapters];

/** Every adapter of one process, each built at its first read. */
export function buildServices(cfg: Config, clock: Clock = systemClock): Services {
  return composeServices(cfg, clock, ALL_ADAPTERS);
}
