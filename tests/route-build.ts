import type { ServerBuild } from "react-router";

type Handler = (args: { request: Request }) => Response | Promise<Response>;

/**
 * A React Router server build with resource routes (by default one, `*`) that answer every path and
 * method with `handle`: the request handlers under test run React Router itself, without `npm run build`.
 */
export function resourceRouteBuild(handle: Handler, paths = ["*"]): ServerBuild {
  const route = (id: string, parentId: string | undefined, path: string) => ({
    id,
    parentId,
    path,
    index: undefined,
    caseSensitive: undefined,
    hasLoader: id !== "root",
    hasAction: id !== "root",
    hasClientLoader: false,
    hasClientAction: false,
    hasErrorBoundary: false,
    module: "",
    imports: [],
  });
  const children = Object.fromEntries(paths.map((path, i) => [`route-${i}`, route(`route-${i}`, "root", path)]));
  const routes = { root: route("root", undefined, ""), ...children };
  return {
    entry: { module: { default: () => new Response("no documents here", { status: 500 }) } },
    routes: {
      root: { ...routes.root, module: { default: () => null } },
      ...Object.fromEntries(
        Object.entries(children).map(([id, child]) => [id, { ...child, module: { loader: handle, action: handle } }]),
      ),
    },
    assets: { entry: { imports: [], module: "" }, routes, url: "", version: "test" },
    publicPath: "/",
    assetsBuildDirectory: "",
    future: {},
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "lazy", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}
