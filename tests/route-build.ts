import type { ServerBuild } from "react-router";

type Handler = (args: { request: Request }) => Response | Promise<Response>;

/**
 * A React Router server build with one resource route that answers every path and method with
 * `handle`: the request handlers under test run React Router itself, without `npm run build`.
 */
export function resourceRouteBuild(handle: Handler): ServerBuild {
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
  const routes = { root: route("root", undefined, ""), anything: route("anything", "root", "*") };
  return {
    entry: { module: { default: () => new Response("no documents here", { status: 500 }) } },
    routes: {
      root: { ...routes.root, module: { default: () => null } },
      anything: { ...routes.anything, module: { loader: handle, action: handle } },
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
