// The layers, as one table: eslint.config.js turns it into import-x/no-restricted-paths zones, and
// docs/CONVENTIONS.md shows it (tests/integration/lint-rules.test.ts holds the two to each other).
// Each row: a folder, what it may not import, and why. Paths are from the repository's root.

/** @typedef {{ folder: string, mayNotImport: string[], except?: string[], why: string }} Layer */

/** @type {Layer[]} */
export const layers = [
  {
    folder: "app/routes",
    mayNotImport: ["db", "jobs", "server"],
    why: "routes reach the database through app/models and its access rules",
  },
  {
    folder: "app/models",
    mayNotImport: ["app/routes", "app/auth", "app/components", "jobs", "server"],
    why: "models serve routes and jobs; they enqueue jobs through the registry, never import them",
  },
  {
    folder: "app/auth",
    mayNotImport: ["app/routes", "app/components", "jobs", "server"],
    why: "sign-in sits beside the models",
  },
  {
    folder: "app/services",
    mayNotImport: ["app/routes", "app/models", "app/auth", "app/components", "jobs", "server"],
    why: "services (mail, SMS, storage, keys…) know nothing of the app's entities",
  },
  {
    folder: "app/components",
    mayNotImport: ["app/routes", "app/models", "app/services", "app/auth", "db", "jobs", "server"],
    why: "components render what a loader gave them",
  },
  {
    folder: "app/utils",
    mayNotImport: ["app/routes", "app/models", "app/services", "app/auth", "app/components", "db", "jobs", "server"],
    why: "helpers are leaves: a util that needs a service is a service",
  },
  {
    folder: "app/i18n",
    mayNotImport: ["app/routes", "app/models", "app/services", "app/auth", "app/components", "db", "jobs", "server"],
    why: "translation is a leaf every layer uses",
  },
  {
    folder: "jobs",
    mayNotImport: ["app/routes", "app/components", "db", "server"],
    why: "jobs reach the database through app/models, like routes",
  },
  {
    folder: "db",
    mayNotImport: ["app", "jobs", "server"],
    // The logger is a leaf (pino only): the pool reports its connection errors through it.
    except: ["app/services/logger.server.ts"],
    why: "the database layer is the bottom; the pool logs through the logger",
  },
];

/** The rows as import-x/no-restricted-paths zones (each path relative to the root). */
export function layerZones(list = layers) {
  return list.flatMap(({ folder, mayNotImport, except }) => {
    const zone = { target: `./${folder}`, message: "layers point one way (docs/CONVENTIONS.md)" };
    return mayNotImport.map((from) => {
      const inside = (except ?? []).filter((path) => path.startsWith(`${from}/`));
      return inside.length
        ? { ...zone, from: `./${from}`, except: inside.map((path) => `./${path.slice(from.length + 1)}`) }
        : { ...zone, from: `./${from}` };
    });
  });
}

/** Each row's cells as docs/CONVENTIONS.md shows them: folder, what it may not import, why. */
export function layerCells(list = layers) {
  const code = (path) => `\`${path}\``;
  return list.map(({ folder, mayNotImport, except, why }) => [
    code(folder),
    mayNotImport.map(code).join(", ") + (except?.length ? ` (but ${except.map(code).join(", ")})` : ""),
    why,
  ]);
}

/** The rows as a Markdown table, to paste between CONVENTIONS.md's layers markers (Prettier pads it). */
export function layersMarkdown(list = layers) {
  const rows = layerCells(list).map((cells) => `| ${cells.join(" | ")} |`);
  return ["| Folder | May not import | Why |", "| --- | --- | --- |", ...rows].join("\n");
}
