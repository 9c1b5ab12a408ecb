import type { MetaFunction } from "@remix-run/node";

/** meta() for routes whose loader returns `{ title }`. */
export const titleFromLoader: MetaFunction = ({ data }) => {
  const title = (data as { title?: string } | undefined)?.title;
  return title ? [{ title }] : [];
};
