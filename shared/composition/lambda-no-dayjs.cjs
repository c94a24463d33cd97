/**
 * dayjs in the Lambda bundles: absent. sanitize-html requires launder for one function,
 * `naughtyHref` (is this link's scheme allowed?), and launder requires dayjs at load for its date
 * and time helpers, which sanitize-html never calls. See launderWithoutDayjsPlugin
 * (esbuild-plugins.ts). CommonJS, as launder requires it: should a helper ever call it, the error
 * says why instead of "dayjs is not a function".
 */
module.exports = function dayjs() {
  throw new Error('dayjs is not in the Lambda bundle: only launder.naughtyHref (through sanitize-html) may run there');
};
