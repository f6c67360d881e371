'use strict';
/**
 * Lets a second `serverless offline` of the test suite (key rotation, Razorpay, storage
 * faults) serve the bundles the suite's first offline built moments ago instead of bundling
 * every function again: bundling is most of an offline start (over a minute of CPU on two
 * cores), and the bundles do not depend on the environment a stack runs with.
 *
 * Active only when ESBUILD_PREBUILT names the esbuild work folder of a finished build of this
 * service (the test stack's `.esbuild`); otherwise serverless-esbuild works as always. It
 * replaces that plugin's bundle step, so it must be listed after it in serverless.yml.
 */
const { existsSync } = require('node:fs');
const { join, relative } = require('node:path');

class PrebuiltBundles {
  constructor(serverless) {
    this.hooks = {
      initialize: () => {
        const from = process.env.ESBUILD_PREBUILT;
        if (!from) return;
        const build = join(serverless.serviceDir, from, '.build');
        const esbuild = serverless.pluginManager.plugins.find((p) => p.constructor.name === 'EsbuildServerlessPlugin');
        if (!esbuild) throw new Error('ESBUILD_PREBUILT needs serverless-esbuild listed before this plugin');
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
      },
    };
  }
}

module.exports = PrebuiltBundles;
