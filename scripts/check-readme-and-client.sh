#!/usr/bin/env bash
# The README's "Try it" blocks and the typed client's package, checked as a newcomer meets them
# (docs/local-development.md, "README and client check"):
#   1. `npm start` in the background on a free port, as the README says; wait for its ready line.
#   2. Every ```sh block of README.md's "## Try it" section, in order, in one `bash -e`, from the
#      repository root, with PDS set to the address npm start printed. curl is wrapped to fail on an
#      HTTP status of 400 or more unless the line says which it expects (`EXPECT=400 curl …`).
#      Those blocks pack the client, install the tarball into an empty folder and run its example.
#   3. The packed client once more in another empty folder: a consumer's TypeScript build against
#      the installed types (with the consumer's own typescript and @types/node, as a partner has),
#      and a refused connection retried and reported as ECONNREFUSED.
#   4. The stack is stopped on every exit (trap), as Ctrl-C stops it.
# Needs what `npm start` needs (Java 17) and the npm registry (step 3 installs typescript).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

if [ -e .local/stack.env ]; then
  echo "✗ .local/stack.env exists: a local stack from this checkout is running (or died without cleaning up)." >&2
  echo "  Stop it (Ctrl-C in its terminal) or remove the file, then run this again; this check starts its own." >&2
  exit 1
fi

free_port() { node -e "const s = require('net').createServer().listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); })"; }
WORK=$(mktemp -d)
STACK_LOG=$WORK/stack.log
STACK_PID=
stop_stack() {
  local code=$?
  if [ -n "$STACK_PID" ] && kill -0 "$STACK_PID" 2>/dev/null; then
    echo "Stopping the local stack (SIGINT to its process group, as Ctrl-C)"
    kill -INT -- "-$STACK_PID" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$STACK_PID" 2>/dev/null || break; sleep 1; done
    kill -KILL -- "-$STACK_PID" 2>/dev/null || true
  fi
  [ "$code" -eq 0 ] || { echo "--- last lines of npm start ---" >&2; tail -40 "$STACK_LOG" >&2 || true; }
  rm -rf "$WORK"
  exit "$code"
}
trap stop_stack EXIT

# --- 1. the stack, as the README starts it; its own process group so the stop reaches all of it
HTTP_PORT=$(free_port)
started=$(date +%s)
HTTP_PORT=$HTTP_PORT setsid npm start >"$STACK_LOG" 2>&1 &
STACK_PID=$!
PDS=
for _ in $(seq 900); do
  PDS=$(sed -n 's/^✓ serverless offline on \(http:\/\/[^,]*\),.*/\1/p' "$STACK_LOG" | head -1)
  [ -n "$PDS" ] && break
  kill -0 "$STACK_PID" 2>/dev/null || { echo "✗ npm start exited before it was ready" >&2; exit 1; }
  sleep 1
done
[ -n "$PDS" ] || { echo "✗ npm start was not ready within 15 minutes" >&2; exit 1; }
echo "✓ npm start ready at $PDS in $(($(date +%s) - started)) s"

# --- 2. the README's "Try it" blocks, top to bottom
README_SCRIPT=$WORK/readme-try-it.sh
{
  cat <<'PRELUDE'
# Written by scripts/check-readme-and-client.sh: a curl that fails on an HTTP error status.
curl() {
  local out status
  out=$(command curl -w '\n%{http_code}' "$@") || { echo "✗ curl exited $?: curl $*" >&2; return 1; }
  status=${out##*$'\n'}
  printf '%s\n' "${out%$'\n'*}"
  if [ -n "${EXPECT:-}" ]; then
    [ "$status" = "$EXPECT" ] || { echo "✗ HTTP $status where the README expects $EXPECT: curl $*" >&2; return 1; }
  elif [ "$status" -ge 400 ]; then
    echo "✗ HTTP $status: curl $*" >&2
    return 1
  fi
}
PRELUDE
  awk '
    /^## / { inside = ($0 == "## Try it") }
    inside && /^```/ { if (block) { block = 0; print "" } else if ($0 == "```sh") block = 1; next }
    inside && block { print }
  ' README.md
} >"$README_SCRIPT"
blocks=$(awk '/^## / { inside = ($0 == "## Try it") } inside && $0 == "```sh" { n++ } END { print n + 0 }' README.md)
[ "$blocks" -gt 0 ] || { echo "✗ README.md has no \`\`\`sh block under \"## Try it\"" >&2; exit 1; }
echo "Running the README's $blocks \"Try it\" blocks ($(wc -l <"$README_SCRIPT") lines) against $PDS"
README_LOG=$WORK/readme.log
# From the repository root, as the README says; what the blocks save there (the invoice PDF, the
# Postman files) is removed afterwards: only new untracked files of those names, nothing else.
untracked() { git ls-files --others --exclude-standard | sort; }
untracked >"$WORK/untracked.before"
if ! PDS=$PDS bash -e "$README_SCRIPT" >"$README_LOG" 2>&1; then
  echo "✗ a README block failed; its output:" >&2
  tail -60 "$README_LOG" >&2
  exit 1
fi
untracked | comm -13 "$WORK/untracked.before" - | { grep -E '^(invoice-[^/]*\.pdf|[^/]*\.postman_(collection|environment)\.json)$' || true; } | while IFS= read -r saved; do rm -f -- "$saved"; done
# The last block installs the packed client into an empty folder and runs its example flow.
grep -q '^cancelled refund' "$README_LOG" || { echo "✗ the README's client block did not run the example flow to its end" >&2; tail -30 "$README_LOG" >&2; exit 1; }
grep -E '^(search|order|booking|amended|invoice|cancelled|clock) ' "$README_LOG" | sed 's/^/  /'
echo "✓ README \"Try it\": $blocks blocks ran"

# --- 3. the packed client in a consumer's TypeScript project, and a refused connection
PACKED=$WORK/packed
CONSUMER=$WORK/consumer
mkdir -p "$PACKED" "$CONSUMER"
(cd clients/typescript && npm pack --silent --pack-destination "$PACKED" >/dev/null)
cd "$CONSUMER"
npm init -y >/dev/null && npm pkg set type=module   # an ES module project, as top-level await needs
npm install --no-audit --no-fund --silent "$PACKED"/*.tgz
# The consumer's own compiler and Node types (dev tools of the partner's project, not the client's dependencies).
npm install --no-audit --no-fund --silent --save-dev "typescript@$(node -p "require('$ROOT/package.json').devDependencies.typescript")" \
  "@types/node@$(node -p "require('$ROOT/package.json').devDependencies['@types/node']")"
cat >tsconfig.json <<'JSON'
{ "compilerOptions": { "target": "ES2023", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true, "types": ["node"], "outDir": "out" }, "include": ["consumer.ts"] }
JSON
cat >consumer.ts <<'TS'
import { createPartnerClient, NotFoundError, type PartnerClient } from '@villa-distribution/partner-distribution-client';

const pds: PartnerClient = createPartnerClient({ baseUrl: process.env.PDS_BASE_URL!, apiKey: process.env.PDS_API_KEY!, userAgent: 'readme-check/1', timeoutMs: 10_000 });
const ping = await pds.GET('/v1/ping');
const invoices: string[] = [];
for await (const invoice of pds.invoices.list({ size: '1' }).each()) invoices.push(invoice.invoiceNumber ?? `draft ${invoice.id}`);
const missing = await pds.bookings.get('no-such-booking').catch((e: unknown) => e);
if (!(missing instanceof NotFoundError)) throw new Error(`expected a NotFoundError, got ${String(missing)}`);
console.log(`consumer: group ${ping.agentGroupId}, ${invoices.length} invoices (${invoices.join(', ')}), a missing booking is ${missing.name} ${missing.code}`);
TS
npx tsc -p tsconfig.json
PDS_BASE_URL=$PDS PDS_API_KEY=pds_demo_group_tripkart_agents_01 node out/consumer.js
closed=$(free_port)
if refused=$(PDS_BASE_URL=http://127.0.0.1:$closed PDS_API_KEY=x npx --no-install pds-partner-flow 2>&1); then
  echo "✗ the example succeeded against a closed port" >&2
  exit 1
fi
echo "$refused" | grep -q 'ECONNREFUSED' || { echo "✗ a refused connection was not reported as such: $refused" >&2; exit 1; }
echo "✓ packed client: installs alone, a consumer builds against its types, a refused connection says $(echo "$refused" | grep -o 'no answer ([A-Z]*)')"
cd "$ROOT"
echo "README and client check: passed in $(($(date +%s) - started)) s"
