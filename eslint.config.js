// Lint rules for the whole repository; `npm run lint` runs it with zero warnings allowed.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// Layers point one way: routes → models → services → db. Each zone lists what a folder may NOT import.
const layers = [
  // The logger is a leaf (pino only): the pool reports its connection errors through it.
  { target: "./db", from: ["./app"], except: ["./services/logger.server.ts"] },
  { target: "./db", from: ["./jobs", "./server"] },
  {
    target: "./app/services",
    from: ["./app/models", "./app/routes", "./app/auth", "./app/components", "./jobs", "./server"],
  },
  { target: "./app/models", from: ["./app/routes", "./app/auth", "./app/components", "./jobs", "./server"] },
  { target: "./app/auth", from: ["./app/routes", "./app/components", "./jobs", "./server"] },
  {
    target: "./app/components",
    from: ["./app/routes", "./app/models", "./app/services", "./app/auth", "./jobs", "./server", "./db"],
  },
  {
    target: "./app/utils",
    from: ["./app/routes", "./app/models", "./app/auth", "./app/components", "./jobs", "./server"],
  },
  {
    target: "./app/i18n",
    from: ["./app/routes", "./app/models", "./app/services", "./app/auth", "./app/components", "./jobs", "./server"],
  },
  // Routes reach the database only through app/models (and its access rules).
  { target: "./app/routes", from: ["./jobs", "./server", "./db"] },
  { target: "./jobs", from: ["./app/routes", "./app/components", "./server"] },
].map((zone) => ({ ...zone, message: "layers point one way (docs/CONVENTIONS.md)" }));

export default tseslint.config(
  {
    ignores: [
      "build/",
      ".data/",
      ".cache/",
      ".react-router/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "public/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  importX.flatConfigs.recommended,
  importX.flatConfigs.typescript,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    settings: { "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })] },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "import-x/no-cycle": "error",
      "import-x/no-restricted-paths": ["error", { zones: layers }],
      "import-x/order": [
        "error",
        {
          groups: ["builtin", "external", "internal", "parent", "sibling", "index"],
          alphabetize: { order: "asc", caseInsensitive: true },
        },
      ],
      "import-x/no-named-as-default-member": "off",
      "no-console": "error",
    },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // Answers are voice recordings: their text alternative is the transcript shown with them, not a caption track.
      "jsx-a11y/media-has-caption": "off",
      // Checkbox labels nest their title and hint one level deeper than the default allows.
      "jsx-a11y/label-has-associated-control": ["error", { depth: 3 }],
    },
  },
  {
    // Tests, command-line entries and scripts sit outside the layers: they drive any layer from outside.
    files: ["**/*.test.{ts,tsx}", "tests/**", "scripts/**", "db/migrate.ts", "db/seed/**"],
    rules: { "import-x/no-restricted-paths": "off" },
  },
  {
    // Command-line scripts, benchmarks and tests talk to the terminal.
    files: [
      "scripts/**",
      "db/migrate.ts",
      "db/seed/**",
      "**/*.test.{ts,tsx}",
      "tests/**",
      "app/components/error-boundary.tsx",
    ],
    rules: { "no-console": "off" },
  },
  // ---- suite (decision 034): the one translator --------------------------------------------------
  // "react-i18next" resolves to app/i18n/react-lite.tsx (tsconfig `paths`), yet it is imported as a
  // package and sorts with the packages.
  { settings: { "import-x/external-module-folders": ["node_modules", "app/i18n/react-lite.tsx"] } },
  // ---- end suite -----------------------------------------------------------------------------------
  prettier,
);
