#!/usr/bin/env bash
# Packages the dev, staging and prod stacks exactly as the pipeline deploys them, without AWS
# credentials, checks every HTTP API route key against API Gateway's rules (scripts/check-route-keys.ts)
# and each template against the deploy budget (scripts/check-deploy-budget.ts),
# and lints each CloudFormation template with cfn-lint (0 errors; the warnings
# silenced in .cfnlintrc.yaml say why). staging is packaged with every optional feature on
# (custom domain, alarm topic, a pinned secret version) so those branches are linted too.
set -euo pipefail
cd "$(dirname "$0")/.."

out="${TMPDIR:-/tmp}/pds-stage-templates"
rm -rf "$out"
package() {
  local stage=$1
  shift
  env "$@" npx serverless package --stage "$stage" --package "$out/$stage" ${SECRET_PARAM:+--param="$SECRET_PARAM"} >"$out-$stage.log" 2>&1 || {
    cat "$out-$stage.log"
    echo "serverless package --stage $stage failed"
    return 1
  }
  echo "packaged $stage: $(ls "$out/$stage"/*.zip | wc -l) function artifacts"
}
mkdir -p "$out"
package dev
package prod
SECRET_PARAM="secretVersionId=00000000-0000-4000-8000-000000000000" package staging \
  CUSTOM_DOMAIN=api.staging.example.com \
  CUSTOM_DOMAIN_CERTIFICATE_ARN=arn:aws:acm:ap-south-1:123456789012:certificate/00000000-0000-4000-8000-000000000000 \
  ALARM_TOPIC_ARN=arn:aws:sns:ap-south-1:123456789012:partner-distribution-staging-alarms

# cfn-lint does not know API Gateway's route-key rules (a key ending in "/" fails only at deploy).
npx tsx scripts/check-route-keys.ts "$out"/{dev,staging,prod}/cloudformation-template-update-stack.json
# CloudFormation's walls (500 resources, 1 MB) with headroom: infra/deploy/budget.ts.
npx tsx scripts/check-deploy-budget.ts "$out"/{dev,staging,prod}/cloudformation-template-update-stack.json

cfn-lint --version
for stage in dev staging prod; do
  cfn-lint "$out/$stage/cloudformation-template-update-stack.json"
  echo "cfn-lint $stage: 0 errors, 0 unexplained warnings"
done
