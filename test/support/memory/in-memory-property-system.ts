import { randomBytes } from 'node:crypto';
import type { Guest } from '../../../domain/bookings/booking.ts';
import type { Clock } from '../../../domain/ports/clock.ts';
import type { ModificationRequest, ModificationResult, PropertySystem, ReservationRequest, ReservationState } from '../../../domain/ports/property-system.ts';
import type { ForcedScenario, SandboxScenarioBook } from '../../../domain/sandbox/workflow-scenarios.ts';
import { simulatedLandingTime, simulatedModificationAnswer, type SimulatorTimings } from '../../../infra/property-system/simulated-property-system.ts';
import type { InMemoryCatalogue } from './in-memory-catalogue.ts';

interface Reservation {
  readonly request: ReservationRequest;
  readonly bookingId: string;
  landsAt: string | null;
  cancelledAt?: string;
  /** The stay as the last accepted modification left it. */
  stay: Pick<ModificationRequest, 'checkIn' | 'checkOut' | 'selectedProperties'>;
  readonly lateAfter?: string;
}

const plusMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

/**
 * The project's property-system simulator in memory, for rule tests in the unit tier: each
 * listing's behaviour is the catalogue's simulator record (the world file's), a sandbox
 * scenario forced for the booking or the amendment (SandboxScenarioBook) overrides it, and the answers are SimulatedPropertySystem's own rules
 * (simulatedLandingTime, simulatedModificationAnswer) on the given clock. It keeps the port's
 * contract (test/support/contracts/property-system-contract.ts runs against it and
 * SimulatedPropertySystem on DynamoDB Local). The reservations, their stays and the
 * modifications asked are kept for the test to read.
 */
export class InMemoryPropertySystem implements PropertySystem, SandboxScenarioBook {
  private readonly reservations = new Map<string, Reservation>();
  private readonly forcedScenarios = new Map<string, ForcedScenario>();
  private readonly answers = new Map<string, ModificationResult>();
  readonly modifications: ModificationRequest[] = [];

  constructor(
    private readonly catalogue: InMemoryCatalogue,
    private readonly clock: Clock,
    private readonly timings: SimulatorTimings,
  ) {}

  async reserve(request: ReservationRequest): Promise<ReservationState> {
    const existing = this.reservations.get(request.bookingRef);
    if (existing) return this.stateOf(existing);
    const scenario = this.forcedScenarios.get(request.bookingRef);
    const reservation: Reservation = {
      request,
      bookingId: `SIM-${randomBytes(6).toString('hex').toUpperCase()}`,
      landsAt: simulatedLandingTime(this.catalogue.simulatorOf(request.listingId), request, this.timings, scenario),
      stay: { checkIn: request.checkIn, checkOut: request.checkOut, selectedProperties: request.selectedProperties },
      ...(scenario === 'booking-late' ? { lateAfter: plusMs(request.requestedAt, this.timings.windowSeconds * 1000) } : {}),
    };
    this.reservations.set(request.bookingRef, reservation);
    return this.stateOf(reservation);
  }

  async status(bookingRef: string): Promise<ReservationState> {
    const reservation = this.reservations.get(bookingRef);
    if (!reservation) return { state: 'PENDING', checkAgainAt: null };
    const now = this.clock.now().toISOString();
    // booking-late: the first look past the window fixes the landing half a window later.
    if (reservation.lateAfter && reservation.landsAt === null && reservation.lateAfter <= now) {
      reservation.landsAt = plusMs(now, this.timings.windowSeconds * 500);
      return { state: 'PENDING', checkAgainAt: reservation.landsAt };
    }
    return this.stateOf(reservation);
  }

  async cancel(bookingRef: string, at: string): Promise<void> {
    const reservation = this.reservations.get(bookingRef);
    if (!reservation) throw new Error(`no reservation ${bookingRef} to cancel`);
    reservation.cancelledAt ??= at;
  }

  async canModify(listingId: string): Promise<boolean> {
    return !this.catalogue.simulatorOf(listingId).cannotModify;
  }

  async modify(request: ModificationRequest): Promise<ModificationResult> {
    const key = `${request.bookingRef}|${request.key}`;
    const earlier = this.answers.get(key);
    if (earlier) return earlier;
    const reservation = this.reservations.get(request.bookingRef);
    const result =
      request.kind === 'restore'
        ? ({ accepted: true } as const)
        : simulatedModificationAnswer(this.catalogue.simulatorOf(request.listingId), this.forcedScenarios.get(request.key));
    // As on DynamoDB, the answer is kept before the stay is rewritten: a change to a reservation never placed fails after it.
    this.answers.set(key, result);
    this.modifications.push(request);
    if (result.accepted && !reservation) throw new Error(`no reservation ${request.bookingRef} to modify`);
    if (result.accepted) reservation!.stay = { checkIn: request.checkIn, checkOut: request.checkOut, selectedProperties: request.selectedProperties };
    return result;
  }

  /** The simulator keeps no guest, so there is nothing to forget. */
  async forgetGuest(_bookingRef: string, _marker: Guest): Promise<void> {}

  async force(key: string, scenario: ForcedScenario): Promise<void> {
    this.forcedScenarios.set(key, scenario);
  }

  async forced(key: string): Promise<ForcedScenario | undefined> {
    return this.forcedScenarios.get(key);
  }

  /** A reservation's stay as it stands, and when it was cancelled (what the channel manager holds). */
  reservationOf(bookingRef: string): Readonly<Pick<Reservation, 'bookingId' | 'stay' | 'cancelledAt'>> | undefined {
    return this.reservations.get(bookingRef);
  }

  private stateOf(r: Reservation): ReservationState {
    if (r.landsAt !== null && r.landsAt <= this.clock.now().toISOString()) return { state: 'CONFIRMED', bookingId: r.bookingId };
    return { state: 'PENDING', checkAgainAt: r.landsAt };
  }
}
