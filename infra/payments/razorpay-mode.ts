/**
 * Razorpay's mode is in the key: `rzp_live_…` keys act on real money, `rzp_test_…` keys on test
 * mode (razorpay.com/docs/payments/payment-gateway/s2s-integration/refunds/how-to-integrate,
 * "Before you begin": keys that start with rzp_live_ send requests to live mode; razorpay.com/docs/api/authentication).
 * prod takes live money only, so a test key there would leave partners' payments unseen; any
 * other stage must never touch live money. Checked where a stage's key is set (`stage razorpay`)
 * and at every start (parseConfig), so neither a bad write nor a hand-edited secret gets through.
 */
export function razorpayKeyModeProblem(stage: string, keyId: string): string | undefined {
  if (stage === 'prod' && !keyId.startsWith('rzp_live_')) return `stage prod takes only a live Razorpay key (rzp_live_…), not ${keyId.slice(0, 9)}…`;
  if (stage !== 'prod' && keyId.startsWith('rzp_live_')) return `stage ${stage} may not use a live Razorpay key (rzp_live_…): only prod takes live money`;
  return undefined;
}
