// Preloaded by `npm run build` and `npm run dev` (node --import). React Router 7.18.4, the last 7.x,
// hands Vite 8 `envFile: false` in the compilers it makes for itself, beyond reach of vite.config.ts,
// and Vite answers each with a deprecation line although the option still does what it should
// (fixed in React Router 8; decision 034). Exactly that line is dropped, so real warnings stand out.
const KNOWN = ["The `envFile` option is deprecated, please use `envDir: false` instead."];
const warn = console.warn.bind(console);
console.warn = (...args) => {
  if (typeof args[0] === "string" && KNOWN.some((line) => args[0].includes(line))) return;
  warn(...args);
};
