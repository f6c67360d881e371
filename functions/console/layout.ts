import type { Person } from '../../domain/console/people.ts';
import { html, type Html } from './html.ts';

export interface Viewer {
  readonly person: Person;
  readonly csrfToken: string;
  /** The account's name (a partner's group) or "Operations". */
  readonly accountName: string;
  /** A sandbox stage: its screens (test clocks, test scenarios) are shown. */
  readonly sandbox: boolean;
}

const PARTNER_NAV: readonly [string, string, string][] = [
  ['home', '/console/home', 'Home'],
  ['bookings', '/console/bookings', 'Bookings'],
  ['invoices', '/console/invoices', 'Invoices'],
  ['statement', '/console/statement', 'Statement'],
  ['ledger', '/console/ledger', 'Ledger'],
  ['audit', '/console/audit', 'Audit trail'],
  ['partner-audit', '/console/partner-audit', 'Partner audit trail'],
  ['webhooks', '/console/webhooks', 'Webhooks'],
  ['keys', '/console/keys', 'API keys'],
  ['partner-keys', '/console/partner-keys', 'Partner API keys'],
  ['test-clocks', '/console/test-clocks', 'Test clock'],
  ['sandbox-header', '/console/test-scenarios', 'Test scenarios'],
  ['team', '/console/team', 'Team'],
  ['contacts', '/console/contacts', 'Finance contacts'],
];
/** Screens of sandbox stages only: elsewhere their pages answer 404 and the navigation leaves them out. */
const SANDBOX_SECTIONS = new Set(['test-clocks', 'sandbox-header']);
const OPERATOR_NAV: readonly [string, string, string][] = [
  ['groups', '/console/operator/groups', 'Groups'],
  ['partners', '/console/operator/partners', 'Partners'],
  ['gateway-payments', '/console/operator/payments', 'Gateway payments'],
  ['channex', '/console/operator/channex', 'Channex'],
  ['billing', '/console/operator/billing', 'Billing runs'],
  ['audit-search', '/console/operator/audit', 'Audit trail'],
];

/** A POST form with the session's CSRF token: every change the console makes goes through one. */
export const postForm = (viewer: Viewer, action: string, body: Html, label = 'form'): Html =>
  html`<form method="post" action="${action}" aria-label="${label}"><input type="hidden" name="csrf" value="${viewer.csrfToken}">${body}</form>`;

/**
 * Every page: a skip link, a banner with the account and the person, the navigation their
 * role may use, and one main landmark with the page's single h1.
 */
export function page(title: string, body: Html, viewer?: Viewer, allowed: (section: string) => boolean = () => true, current = ''): string {
  const nav = viewer
    ? (viewer.person.access.kind === 'operator' ? OPERATOR_NAV : PARTNER_NAV).filter(
        ([section]) => allowed(section) && (!SANDBOX_SECTIONS.has(section) || viewer.sandbox),
      )
    : [];
  return html`<!doctype html>
<html lang="en-IN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Console</title>
<link rel="stylesheet" href="/console/assets/console.css">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<p class="brand">Villa distribution console</p>
${
  viewer
    ? html`<p class="who"><span>${viewer.accountName}</span> · <span>${viewer.person.email}</span> (${viewer.person.access.role})</p>
${postForm(viewer, '/console/sign-out', html`<button type="submit" class="link">Sign out</button>`, 'Sign out')}`
    : ''
}
</header>
${
  nav.length
    ? html`<nav aria-label="Console"><ul>${nav.map(
        ([section, href, label]) => html`<li><a href="${href}"${section === current ? html` aria-current="page"` : ''}>${label}</a></li>`,
      )}</ul></nav>`
    : ''
}
<main id="main" tabindex="-1">
<h1>${title}</h1>
${body}
</main>
</body>
</html>`.markup;
}

/** The console's one stylesheet: readable at phone width, visible focus, no script. */
export const CONSOLE_CSS = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#fafafa}
a{color:#0b4f9c}
:focus-visible{outline:3px solid #c25e00;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:1}
.top{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;justify-content:space-between;padding:12px 16px;background:#13294b;color:#fff}
.top p{margin:0}.brand{font-weight:700}
.top form{margin:0}.top .link{color:#fff}
nav ul{display:flex;flex-wrap:wrap;gap:4px 16px;list-style:none;margin:0;padding:8px 16px;background:#e8edf5}
nav a[aria-current=page]{font-weight:700;text-decoration:none;border-bottom:3px solid #13294b}
main{max-width:960px;margin:0 auto;padding:16px}
h1{font-size:1.6rem;margin:.5rem 0 1rem}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:12px;margin:0}
.figures div{background:#fff;border:1px solid #ccd;border-radius:6px;padding:12px}
.figures dt{font-size:.9rem;color:#444}.figures dd{margin:0;font-size:1.3rem;font-weight:600}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:8px;border-bottom:1px solid #ddd;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
label.inline{display:inline;font-weight:400}
fieldset{border:1px solid #ccd;border-radius:6px;margin:.75rem 0;padding:8px 12px}
input,select{font:inherit;padding:8px;border:1px solid #767676;border-radius:4px;max-width:100%}
button{font:inherit;padding:8px 16px;border-radius:4px;border:1px solid #13294b;background:#13294b;color:#fff;cursor:pointer;margin-top:8px}
button.link{background:none;border:none;padding:0;text-decoration:underline;margin:0}
.notice{padding:12px;border-left:4px solid #0b4f9c;background:#eef4fb}
.alert{padding:12px;border-left:4px solid #b00020;background:#fdecee}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:#fff;border:1px dashed #767676;padding:8px}
pre{overflow-x:auto;background:#fff;border:1px solid #ccd;border-radius:6px;padding:8px;font-size:.9rem}
code{font-family:ui-monospace,monospace;overflow-wrap:anywhere}
`;
