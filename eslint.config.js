// Lint rules for the whole repository; `npm run lint` runs it with zero warnings allowed.
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import { importX } from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

import { layerZones } from "./lint/layers.js";
import { noSchemaInBrowser } from "./lint/no-schema-in-browser.js";

const heirloom = { rules: { "no-schema-in-browser": noSchemaInBrowser } };

// Rules written once (docs/CONVENTIONS.md "One way to do each thing"): each has its one home, and
// lint refuses the same rule written anywhere else in app/, server/ or jobs/.
const answerFlag = "/(^|\\.)(is_private|recorded_for_email)$/";
const channelMember = "TSLiteralType[literal.value=/^(email|sms|call|whatsapp)$/]";
const writtenOnce = [
  {
    // Who may hear an answer: answerVisibleTo (sharedAnswer, isOwnAnswer). Nothing else compares
    // answers.is_private or recorded_for_email, in Kysely or raw SQL; selecting the flag to show a
    // "private" badge stays allowed.
    home: "app/models/access.server.ts",
    message: "who may hear an answer is answerVisibleTo's, in app/models/access.server.ts",
    selectors: [
      // In a where's arguments, in an `eb(column, op, value)` anywhere, or named by sql.ref.
      `Literal[value=${answerFlag}]:matches(${[
        "CallExpression[callee.property.name=/^(where|having|on)$/] > *.arguments *",
        "CallExpression[callee.property.name=/^(where|having|on)$/] > Literal.arguments",
        "CallExpression[arguments.length=3] > Literal.arguments",
        'CallExpression[callee.property.name="ref"] > Literal.arguments',
      ].join(", ")})`,
      "TemplateElement[value.raw=/\\b(is_private|recorded_for_email)\\b/]",
    ],
  },
  {
    // Dates, numbers and lengths: one formatter per language and options (decisions 056, 075).
    home: "app/utils/intl-formats.ts",
    message: "locales and Intl formatters come from app/utils/intl-formats.ts (intlLocale, formatDay, …)",
    selectors: [
      "NewExpression[callee.object.name='Intl'][callee.property.name=/Format$/]",
      "ConditionalExpression > Literal[value=/^(hi-IN|en-GB|en-US|en-IN)$/]",
    ],
  },
  {
    home: "app/utils/html.ts",
    message: "escapeHtml is app/utils/html.ts's",
    selectors: [":matches(FunctionDeclaration, VariableDeclarator)[id.name='escapeHtml']"],
  },
  {
    // The channels are the generated types' (db/schema.ts Channel, DeliveryMethod); the one list
    // the browser needs is deliveryMethods, which tsc holds equal to them (delivery.server.ts).
    home: "app/utils/storyteller-choices.ts",
    message: "the delivery channels are Channel / DeliveryMethod (db/schema.ts) or deliveryMethods, not a new list",
    selectors: [
      // Three channels among a union's own members (a union of objects tagged by channel is no list).
      `TSUnionType > ${channelMember} ~ ${channelMember} ~ ${channelMember}`,
      "ArrayExpression:has(> Literal[value='email']):has(> Literal[value='sms']):has(> Literal[value=/^(call|whatsapp)$/])",
    ],
  },
];
/** The rules written once, as no-restricted-syntax entries, less the one whose home `file` is. */
const restrictedElsewhere = (file) =>
  writtenOnce
    .filter((rule) => rule.home !== file)
    .flatMap((rule) =>
      rule.selectors.map((selector) => ({ selector, message: `${rule.message} (docs/CONVENTIONS.md)` })),
    );

// Files the browser loads: components, helpers without .server, and a screen's own modules except
// its schema and server code. Route modules (app/routes/*.tsx, app/routes/*/route.tsx) reach it too,
// less their action and loader. Standalone pages (decision 026) never run React in a browser.
const routeModules = ["app/routes/*.tsx", "app/routes/*/route.tsx"];
const standalonePages = ["app/routes/_public*.tsx", "app/routes/record.$token/**", "app/routes/[ls].$token.tsx"];
// Resource routes (.ts) have no component: the browser never loads them.
const resourceRoutes = ["app/routes/*.ts", "app/routes/*/route.ts"];
const serverFiles = [
  "**/*.server.{ts,tsx}",
  "**/*-schema.ts",
  "**/schema.ts",
  "**/server.ts",
  "app/utils/validation.ts",
  "**/*.test.{ts,tsx}",
];

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
      "import-x/no-restricted-paths": ["error", { zones: layerZones() }],
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
    files: ["app/components/**", "app/utils/**", "app/routes/**"],
    ignores: [...routeModules, ...resourceRoutes, ...serverFiles],
    plugins: { heirloom },
    rules: { "heirloom/no-schema-in-browser": "error" },
  },
  {
    files: routeModules,
    ignores: standalonePages,
    plugins: { heirloom },
    rules: { "heirloom/no-schema-in-browser": ["error", { routeModule: true }] },
  },
  {
    files: ["app/**", "server/**"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "no-restricted-syntax": ["error", ...restrictedElsewhere(null)] },
  },
  ...writtenOnce.map((rule) => ({
    files: [rule.home],
    rules: { "no-restricted-syntax": ["error", ...restrictedElsewhere(rule.home)] },
  })),
  {
    // Jobs reach the database through app/models: they build no queries of their own.
    files: ["jobs/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "kysely", message: "jobs query through app/models" }] }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|mergeInto)$/]",
          message: "jobs query through app/models (docs/CONVENTIONS.md)",
        },
        ...restrictedElsewhere(null),
      ],
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
