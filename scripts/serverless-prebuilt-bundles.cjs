'use strict';
/**
 * Makes serverless-esbuild use the service's one esbuild pass (scripts/build-functions.ts:
 * every function at once, one metafile) instead of bundling function by function, for
 * `serverless offline` (npm start, and its rebuild when a file is saved) and `serverless
 * package` alike: its bundle step runs that build into its build folder and hands its
 * packing the same bundle paths it would have made (`functions/x/y.ts` →
 * `<work folder>/.build/functions/x/y.mjs`). Bundling is most of an offline start (over a
 * minute of CPU on two cores function by function), and a shared module is parsed once.
 *
 * With ESBUILD_PREBUILT naming the work folder of a finished build (the test stack's
 * `.esbuild`), nothing is built: a second `serverless offline` of the test suite (key
 * rotation, Razorpay, storage faults) serves the bundles the suite's first build made.
 *
 * It replaces that plugin's bundle step, so it must be listed after it in serverless.yml.
 */
const { execFile } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join, relative } = require('node:path');

class OneBuild {
  constructor(serverless) {
    this.hooks = {
      initialize: () => {
        const esbuild = serverless.pluginManager.plugins.find((p) => p.constructor.name === 'EsbuildServerlessPlugin');
        if (!esbuild) throw new Error('scripts/serverless-prebuilt-bundles.cjs needs serverless-esbuild listed before it');
        const from = process.env.ESBUILD_PREBUILT;
        if (from) return this.prebuilt(serverless, esbuild, from);
        const expected = join(serverless.serviceDir, process.env.ESBUILD_WORK_FOLDER || '.esbuild', '.build');
        // npm start runs the first build itself while its emulators start (ESBUILD_ALREADY_BUILT): only saves build here.
        let built = process.env.ESBUILD_ALREADY_BUILT === '1' && existsSync(expected);
        // Saved files arrive in bursts: one build at a time, each save waiting for its own.
        let building = Promise.resolve();
        esbuild.bundle = async () => {
          esbuild.prepare();
          if (esbuild.buildDirPath !== expected)
            throw new Error(`serverless-esbuild builds into ${esbuild.buildDirPath}, scripts/build-functions.ts into ${expected}`);
          if (!built) building = building.catch(() => undefined).then(() => oneBuild(serverless.serviceDir));
          built = false;
          await building;
          const ext = esbuild.buildOptions.outputFileExtension;
          esbuild.buildResults = esbuild.functionEntries
            .filter(({ func }) => func !== null)
            .map(({ entry, func, functionAlias }) => ({ bundlePath: entry.slice(0, entry.lastIndexOf('.')) + ext, func, functionAlias }));
        };
      },
    };
  }

  prebuilt(serverless, esbuild, from) {
    const build = join(serverless.serviceDir, from, '.build');
    if (!existsSync(build)) throw new Error(`ESBUILD_PREBUILT=${from}: no finished build at ${build}`);
    esbuild.bundle = async () => {
      esbuild.buildResults = [];
    };
    esbuild.packExternalModules = async () => undefined;
    esbuild.copyExtras = async () => undefined;
    esbuild.watch = () => undefined;
    esbuild.preOffline = async () => {
      const custom = (serverless.service.custom ??= {});
      custom['serverless-offline'] = { ...custom['serverless-offline'], location: relative(serverless.serviceDir, build) };
    };
  }
}

/** scripts/build-functions.ts in its own process (it is TypeScript; this plugin is loaded by serverless as CommonJS). */
function oneBuild(serviceDir) {
  return new Promise((resolve, reject) => {
    execFile(
      join(serviceDir, 'node_modules', '.bin', 'tsx'),
      ['scripts/build-functions.ts'],
      { cwd: serviceDir, env: process.env, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`scripts/build-functions.ts failed:\n${stderr || err.message}`));
        else {
          process.stdout.write(stdout);
          resolve();
        }
      },
    );
  });
}

module.exports = OneBuild;
