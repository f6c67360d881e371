/** The Redoc standalone bundle, imported as text (esbuild's `.standalone.js` text loader in serverless.yml). */
declare module 'redoc/bundles/redoc.standalone.js' {
  const source: string;
  export default source;
}
