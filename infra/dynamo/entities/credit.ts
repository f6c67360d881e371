import { keys } from '../keys.ts';

/*
 * The items of the credit gate (docs/ledger.md): the group's exposure counter, the group's
 * terms it decides on, and the ledger entries it moves. Their named conditions live here so
 * the ledger and receivables stores state each rule once.
 */

/** The exposure counter: PK = GROUP#<g>, SK = CREDIT (exposure, and credit control's hold). */
export const creditCounterEntity = {
  name: 'CreditCounter',
  key: keys.creditCounter,
  /** Exposure grows by the amount; an absent counter starts at 0 (`:zero`, `:amount`, `:at`). */
  addExposure: 'SET exposure = if_not_exists(exposure, :zero) + :amount, updatedAt = :at',
  conditions: {
    /**
     * Exposure after this authorization stays within the limit: exposure ≤ limit − amount
     * (`:headroom`), evaluated on the counter's value at commit, not on the value the gate read.
     * Gates admitted between our read and our commit are therefore counted. An absent counter is
     * exposure 0, and the gate only gets here when amount ≤ limit. Credit control's hold (an
     * invoice overdue past the group's terms) lives on the counter too: set between our read and
     * our commit, it cancels the gate like an operator's hold (`:false` → false).
     */
    withinLimit: '(attribute_not_exists(exposure) OR exposure <= :headroom) AND (attribute_not_exists(creditHold) OR creditHold = :false)',
    /** A release takes exposure back only from a counter that holds some. */
    hasExposure: 'attribute_exists(exposure)',
    /** Credit control's hold is written only when its verdict changes (`:hold`), so a daily evaluation of every group costs a write only for the few that move. */
    holdChanges: 'attribute_not_exists(creditHold) OR creditHold <> :hold',
  },
} as const;

/** The agent group's profile as the gate reads it (PK = GROUP#<g>, SK = PROFILE). */
export const creditTermsConditions = {
  /**
   * The limit and hold the decision used are still the group's at commit (`:limit`, `:false` →
   * false): an operator who puts the group on hold or lowers its limit between our read and our
   * commit cancels the gate, which re-reads and decides again.
   */
  termsUnchanged: 'creditLimit = :limit AND onHold = :false',
} as const;

/** A ledger entry's status moves. */
export const ledgerEntryConditions = {
  /** Post or release only from the state the caller saw (`:from`, `#status` → status); a racing transition cancels the other. */
  statusIs: '#status = :from',
} as const;
