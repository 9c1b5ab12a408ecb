// Zod stays on the server (decision 026, 032): a file the browser loads may import a zod schema's
// module (zod, @conform-to/zod, `*-schema`, `schema`, utils/validation, a screen's `server`) for its
// types only. A
// route module may also use one in its server-only exports (action, loader, headers), which React
// Router drops from the browser build together with the imports only they use.

const serverSource = /^(zod|@conform-to\/zod)(\/|$)|(^|\/)([^/]*-schema|schema|server|utils\/validation)(\.tsx?)?$/;
const serverExports = new Set(["action", "loader", "headers", "middleware"]);

/** `typeof schema` in a type: erased from the build like a type. */
function inTypeQuery(node) {
  for (let at = node.parent; at; at = at.parent) if (at.type === "TSTypeQuery") return true;
  return false;
}

/** The server-only export a node sits in, if any. */
function inServerExport(node) {
  for (let at = node.parent; at; at = at.parent) {
    if (at.type !== "ExportNamedDeclaration" || !at.declaration) continue;
    const declaration = at.declaration;
    if (declaration.type === "FunctionDeclaration") return serverExports.has(declaration.id?.name);
    if (declaration.type === "VariableDeclaration")
      return declaration.declarations.every((each) => serverExports.has(each.id.name));
    return false;
  }
  return false;
}

/** @type {import("eslint").Rule.RuleModule} */
export const noSchemaInBrowser = {
  meta: {
    type: "problem",
    schema: [{ type: "object", properties: { routeModule: { type: "boolean" } }, additionalProperties: false }],
    messages: {
      refused:
        "'{{source}}' builds zod schemas: a file the browser loads may import it only with `import type`{{where}} (docs/CONVENTIONS.md)",
    },
  },
  create(context) {
    const routeModule = context.options[0]?.routeModule ?? false;
    const where = routeModule ? " or use it in its action or loader" : "";
    return {
      ImportDeclaration(node) {
        const source = node.source.value;
        if (typeof source !== "string" || !serverSource.test(source) || node.importKind === "type") return;
        const values = node.specifiers.filter((specifier) => specifier.importKind !== "type");
        if (node.specifiers.length === 0)
          return context.report({ node, messageId: "refused", data: { source, where } });
        for (const specifier of values) {
          const [variable] = context.sourceCode.getDeclaredVariables(specifier);
          // Used only as a type, it should say so with `import type`.
          const used = (variable?.references ?? []).filter(
            (reference) => reference.isValueReference !== false && !inTypeQuery(reference.identifier),
          );
          const inBrowser =
            !routeModule || used.length === 0 || used.some((reference) => !inServerExport(reference.identifier));
          if (inBrowser) context.report({ node: specifier, messageId: "refused", data: { source, where } });
        }
      },
    };
  },
};
