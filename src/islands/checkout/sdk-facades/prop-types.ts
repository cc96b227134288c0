// prop-types for @stripe/react-stripe-js only (astro.config.mjs; the reason is react.ts's: a
// CommonJS default import). React 19 no longer reads `propTypes` at all, so every checker can be
// this one no-op: `PropTypes.any`, `PropTypes.shape({...}).isRequired` and the like all give it.
type Checker = (() => Checker) & { isRequired: Checker };

const check = (() => check) as Checker;
check.isRequired = check;

const PropTypes: Record<string, Checker> = new Proxy({}, { get: () => check });

export default PropTypes;
