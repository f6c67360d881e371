/**
 * The rendered API reference: one self-contained HTML page holding the Redoc bundle and the
 * OpenAPI document inline, so nothing is fetched from anywhere at runtime. The
 * Content-Security-Policy sent with it (DOCS_CSP) makes a browser refuse any other origin too.
 */

/** Where the page's Redoc comes from: resolved from the docs bundle, in its artifact (scripts/check-packaged-fonts.ts checks it is there). */
export const REDOC_BUNDLE = 'redoc/bundles/redoc.standalone.js';

/** Text placed inside <script>: a closing tag or comment opener in it would end the element early. */
const inScript = (text: string): string => text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');

export function docsPage(document: { info?: { title?: string } }, redocSource: string): string {
  const title = (document.info?.title ?? 'API reference').replace(/[<>&"]/g, '');
  // JSON with every "<" escaped is still the same JSON, and cannot close the script element.
  const spec = JSON.stringify(document).replace(/</g, '\\u003c');
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${title} – API reference</title>`,
    '<style>body { margin: 0; padding: 0; }</style>',
    '</head>',
    '<body>',
    '<div id="redoc"></div>',
    `<script>${inScript(redocSource)}</script>`,
    '<script>',
    `Redoc.init(${spec}, { expandResponses: '200,201,202', hideDownloadButton: false, jsonSampleExpandLevel: 3, sortTagsAlphabetically: false }, document.getElementById('redoc'));`,
    '</script>',
    '</body>',
    '</html>',
  ].join('\n');
}

/**
 * Inline scripts and styles (Redoc injects its CSS), a blob: worker for its search index, images
 * from the page itself or data: URLs, and nothing from any other origin.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline' blob:",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  'worker-src blob:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
