import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { DEFAULT_SIMULATOR, type SimulatorBehaviour } from '../../domain/catalogue/simulator.ts';
import type { Clock } from '../../domain/ports/clock.ts';
import type { ModificationRequest, ModificationResult, PropertySystem, ReservationRequest, ReservationState } from '../../domain/ports/property-system.ts';
import type { ForcedScenario, SandboxScenarioBook } from '../../domain/sandbox/workflow-scenarios.ts';
import { getAll } from '../dynamo/batch-get.ts';
import { isConditionFailure } from '../dynamo/client.ts';
import { simulatedModificationEntity, simulatedReservationEntity } from '../dynamo/entities/property-system.ts';
import { keys } from '../dynamo/keys.ts';
import { TTL_ATTRIBUTE } from '../dynamo/table.ts';

/**
 * How long a forced scenario is kept: it is read when the reservation is placed, the
 * modification asked or the amendment's charge adjusted, normally within the request that
 * forced it, at the latest when the sweeper finishes a workflow whose process died. A week
 * leaves room for any of these.
 */
export const FORCED_SCENARIO_DAYS = 7;

export interface SimulatorTimings {
  /** Divides the world file's confirmAfterSeconds, as it divides every other wait on a test stage. */
  readonly timeScale: number;
  readonly windowSeconds: number;
  readonly syncWaitMs: number;
}

interface Reservation {
  readonly bookingRef: string;
  readonly listingId: string;
  readonly bookingId: string;
  /** When the reservation lands; null: never (or, with lateAfter, not yet decided). */
  readonly landsAt: string | null;
  readonly status: 'RESERVED' | 'CANCELLED';
  /**
   * booking-late: the instant the booking's window closes. The first look at or after it
   * answers PENDING and fixes landsAt half a window later, so the workflow always sees the
   * failure before the landing, however late its worker runs (a landing timed from the
   * request alone was already due when a slow worker first looked, and skipped the failure).
   */
  readonly lateAfter?: string;
}

const plusMs = (iso: string, ms: number): string => new Date(Date.parse(iso) + ms).toISOString();

/**
 * The property system the project owns for local and test stages (docs/world-file.md):
 * each listing's behaviour comes from the world file (confirm at once, confirm after N
 * seconds, never confirm), and a sandbox scenario a request forced for the booking or the
 * amendment (SandboxScenarioBook: one expiring item per key) overrides it. A reservation is
 * one item keyed by the booking, so reserving twice is one reservation and the booking id it
 * hands out never changes.
 */
export class SimulatedPropertySystem implements PropertySystem, SandboxScenarioBook {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly clock: Clock,
    private readonly timings: SimulatorTimings,
  ) {}

  async reserve(request: ReservationRequest): Promise<ReservationState> {
    const existing = await this.read(request.bookingRef);
    if (existing) return this.stateOf(existing);
    const [behaviour, scenario] = await this.behaviourFor(request.listingId, request.bookingRef);
    const reservation: Reservation = {
      bookingRef: request.bookingRef,
      listingId: request.listingId,
      bookingId: `SIM-${randomBytes(6).toString('hex').toUpperCase()}`,
      landsAt: simulatedLandingTime(behaviour, request, this.timings, scenario),
      status: 'RESERVED',
      ...(scenario === 'booking-late' ? { lateAfter: plusMs(request.requestedAt, this.timings.windowSeconds * 1000) } : {}),
    };
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...keys.simulatedReservation(request.bookingRef), entity: 'SimulatedReservation', ...reservation },
          ConditionExpression: simulatedReservationEntity.conditions.isNew,
        }),
      );
      return this.stateOf(reservation);
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return this.stateOf((await this.read(request.bookingRef))!);
    }
  }

  async status(bookingRef: string): Promise<ReservationState> {
    const reservation = await this.read(bookingRef);
    if (!reservation) return { state: 'PENDING', checkAgainAt: null };
    if (reservation.lateAfter && reservation.landsAt === null && reservation.lateAfter <= this.clock.now().toISOString()) return this.landLate(reservation);
    return this.stateOf(reservation);
  }

  /** Fixes a booking-late reservation's landing half a window after this first look past its window (once: a racing look keeps the first). */
  private async landLate(reservation: Reservation): Promise<ReservationState> {
    const landsAt = plusMs(this.clock.now().toISOString(), this.timings.windowSeconds * 500);
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.simulatedReservation(reservation.bookingRef),
          UpdateExpression: 'SET landsAt = :at',
          ConditionExpression: simulatedReservationEntity.conditions.notLanded,
          ExpressionAttributeValues: { ':at': landsAt, ':none': null },
        }),
      );
      return { state: 'PENDING', checkAgainAt: landsAt };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return this.stateOf((await this.read(reservation.bookingRef))!);
    }
  }

  async cancel(bookingRef: string, at: string): Promise<void> {
    await this.db.send(
      new UpdateCommand({
        TableName: this.table,
        Key: keys.simulatedReservation(bookingRef),
        UpdateExpression: 'SET #status = :cancelled, cancelledAt = if_not_exists(cancelledAt, :at)',
        ConditionExpression: simulatedReservationEntity.conditions.exists,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':cancelled': 'CANCELLED', ':at': at },
      }),
    );
  }

  async canModify(listingId: string): Promise<boolean> {
    return !(await this.behaviour(listingId)).cannotModify;
  }

  /**
   * A change to a reservation, answered once per key: the answer is stored with the key
   * (a conditional Put), so a rerun gets the first answer, and only an accepted change
   * rewrites the reservation's stay. The world file's `cannotModify` and `refusesChanges`
   * and the sandbox scenario `amendment-refused` refuse an amendment; a restore is never refused.
   */
  async modify(request: ModificationRequest): Promise<ModificationResult> {
    const key = keys.simulatedModification(request.bookingRef, request.key);
    const earlier = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
    if (earlier.Item) return earlier.Item.result as ModificationResult;
    const result =
      request.kind === 'restore' ? ({ accepted: true } as const) : simulatedModificationAnswer(...(await this.behaviourFor(request.listingId, request.key)));
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { ...key, entity: 'SimulatedModification', result, at: this.clock.now().toISOString() },
          ConditionExpression: simulatedModificationEntity.conditions.isNew,
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const stored = await this.db.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: true }));
      return stored.Item!.result as ModificationResult;
    }
    if (result.accepted) {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: keys.simulatedReservation(request.bookingRef),
          UpdateExpression: 'SET checkIn = :in, checkOut = :out, selectedProperties = :units, modifiedBy = :key',
          ConditionExpression: simulatedReservationEntity.conditions.exists,
          ExpressionAttributeValues: { ':in': request.checkIn, ':out': request.checkOut, ':units': request.selectedProperties, ':key': request.key },
        }),
      );
    }
    return result;
  }

  /** The simulator's reservation holds no guest (bookingRef, listing, stay, units, status), so there is nothing to forget. */
  async forgetGuest(): Promise<void> {}

  /** Records the scenario for a booking or an amendment not yet asked for; the table's TTL removes it. */
  async force(key: string, scenario: ForcedScenario): Promise<void> {
    const expiresAt = Math.floor(this.clock.now().getTime() / 1000) + FORCED_SCENARIO_DAYS * 86_400;
    await this.db.send(
      new PutCommand({ TableName: this.table, Item: { ...keys.forcedScenario(key), entity: 'ForcedScenario', scenario, [TTL_ATTRIBUTE]: expiresAt } }),
    );
  }

  async forced(key: string): Promise<ForcedScenario | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.forcedScenario(key), ConsistentRead: true }));
    return out.Item?.scenario as ForcedScenario | undefined;
  }

  /**
   * The listing's behaviour and the scenario forced for this booking or amendment, in one
   * round trip (a BatchGet in place of the behaviour's GetItem), consistent because the request
   * that forced the scenario wrote it just before.
   */
  private async behaviourFor(listingId: string, key: string): Promise<[Omit<SimulatorBehaviour, 'listingId'>, ForcedScenario | undefined]> {
    const items = await getAll(this.db, this.table, [keys.simulator(listingId), keys.forcedScenario(key)], { consistent: true });
    const behaviour = items.find((i) => i.SK === keys.simulator(listingId).SK) as SimulatorBehaviour | undefined;
    const forced = items.find((i) => i.SK === keys.forcedScenario(key).SK);
    return [behaviour ?? DEFAULT_SIMULATOR, forced?.scenario as ForcedScenario | undefined];
  }

  private stateOf(r: Reservation): ReservationState {
    if (r.landsAt !== null && r.landsAt <= this.clock.now().toISOString()) return { state: 'CONFIRMED', bookingId: r.bookingId };
    return { state: 'PENDING', checkAgainAt: r.landsAt };
  }

  private async behaviour(listingId: string): Promise<Omit<SimulatorBehaviour, 'listingId'>> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.simulator(listingId) }));
    return (out.Item as SimulatorBehaviour | undefined) ?? DEFAULT_SIMULATOR;
  }

  private async read(bookingRef: string): Promise<Reservation | undefined> {
    const out = await this.db.send(new GetCommand({ TableName: this.table, Key: keys.simulatedReservation(bookingRef), ConsistentRead: true }));
    return out.Item as Reservation | undefined;
  }
}

/** The simulator's answer to an amendment: the world file's `cannotModify` and `refusesChanges`, or the sandbox scenario `amendment-refused`, refuse it. */
export function simulatedModificationAnswer(behaviour: Omit<SimulatorBehaviour, 'listingId'>, scenario: ForcedScenario | undefined): ModificationResult {
  if (behaviour.cannotModify)
    return {
      accepted: false,
      reasonCode: 'CHANNEL_CANNOT_MODIFY',
      reason: "The listing's channel manager cannot modify a reservation; cancel and book again.",
    };
  if (behaviour.refusesChanges || scenario === 'amendment-refused')
    return { accepted: false, reasonCode: 'CHANNEL_REFUSED', reason: 'The channel manager refused the change to the reservation.' };
  return { accepted: true };
}

/**
 * When a new reservation lands. Scenarios are timed from the credit gate:
 * booking-processing lands after the synchronous wait (so the POST answers 202) and well
 * inside the window; booking-late lands half a window after the first look past its
 * window (status), which is when the workflow fails it.
 */
export function simulatedLandingTime(
  behaviour: Omit<SimulatorBehaviour, 'listingId'>,
  request: ReservationRequest,
  timings: SimulatorTimings,
  scenario: ForcedScenario | undefined,
): string | null {
  const from = request.requestedAt;
  switch (scenario) {
    case 'booking-processing':
      return plusMs(from, Math.min(2 * timings.syncWaitMs + 500, (timings.windowSeconds * 1000) / 2));
    case 'booking-failed':
      return null;
    case 'booking-late':
      return null;
  }
  switch (behaviour.mode) {
    case 'CONFIRM_IMMEDIATELY':
      return from;
    case 'CONFIRM_AFTER':
      return plusMs(from, (behaviour.confirmAfterSeconds * 1000) / timings.timeScale);
    case 'NEVER_CONFIRM':
      return null;
  }
}
