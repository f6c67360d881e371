import { Metrics as PowertoolsMetrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { MetricName, Metrics } from '../domain/ports/metrics.ts';
import { logger } from './logger.ts';

/** The CloudWatch namespace every count lands in; the alarms of infra/deploy/alarms.ts name it too. */
export const METRICS_NAMESPACE = 'PartnerDistribution';
export const METRICS_SERVICE = 'partner-distribution';

/**
 * Counts as CloudWatch embedded-metric-format lines on stdout, which Lambda ships to
 * CloudWatch Logs and CloudWatch turns into metrics: no API call, no credentials, no latency.
 * Each count is published at once rather than at the end of the invocation, so a count
 * survives a handler that throws or times out, and no handler needs a flush step.
 * Dimensions: `service` and `stage` only, so an alarm names each metric exactly.
 */
export function emfMetrics(stage: string): Metrics {
  const emf = new PowertoolsMetrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE, defaultDimensions: { stage } });
  return {
    count(name: MetricName, value = 1) {
      try {
        emf.addMetric(name, MetricUnit.Count, value);
        emf.publishStoredMetrics();
      } catch (err) {
        logger.warn('metric not published', { metric: name, error: (err as Error).message });
      }
    },
  };
}
